// A self-signed certificate for 127.0.0.1, made by the openssl CLI in a folder of the caller's: for the
// test servers' HTTPS (HTTP/2 over TLS needs it; browsers and Node are told to trust it, or to ignore it).
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * Writes key.pem and cert.pem (EC P-256, a day, subjectAltName IP:127.0.0.1) into `dir`.
 * @param {string} dir
 * @returns {Promise<{ key: string, cert: string, certFile: string }>} PEM texts, and the certificate's path
 *   (for NODE_EXTRA_CA_CERTS)
 */
export async function selfSignedCertificate(dir) {
  const keyFile = path.join(dir, 'key.pem')
  const certFile = path.join(dir, 'cert.pem')
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' })
  return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8'), certFile }
}
