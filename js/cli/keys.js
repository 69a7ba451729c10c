// Decryption keys for the CLI (docs/encryption.md): --footer-key, --column-key path=key
// (repeatable), --aad-prefix, --key-file FILE (JSON), or PARQUET_BLOOM_FOOTER_KEY,
// PARQUET_BLOOM_COLUMN_KEYS (path=key,path=key) and PARQUET_BLOOM_AAD_PREFIX. 'hex:…' gives raw bytes.
// Every secret is remembered so that output can be redacted of it.
import { readFileSync } from 'node:fs'

import { UsageError } from './args.js'

/** @type {Set<string>} */
const secrets = new Set()

/**
 * The text with every key and AAD prefix given to this run replaced by '***'.
 * @param {unknown} text
 */
export function redactSecrets(text) {
  let out = String(text)
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***')
  return out
}

/**
 * Adds secrets given some other way (S3 credentials) to those redacted from output.
 * @param {...unknown} values
 */
export function rememberSecrets(...values) {
  for (const value of values) if (typeof value === 'string') secrets.add(value)
}

/**
 * options.decryption for openParquet, or undefined when no key was given anywhere.
 * @param {Record<string, any>} options parsed command-line options
 * @param {Record<string, string | undefined>} env
 * @returns {import('../index.js').DecryptionOptions | undefined}
 */
export function decryptionFromCommandLine(options, env = process.env) {
  const fromFile = options['key-file'] !== undefined ? readKeyFile(options['key-file']) : {}
  /** @type {Record<string, string>} */
  const columnKeys = { ...fromFile.columnKeys }
  for (const pair of splitPairs(env.PARQUET_BLOOM_COLUMN_KEYS)) Object.assign(columnKeys, columnPair(pair, 'PARQUET_BLOOM_COLUMN_KEYS'))
  for (const pair of options['column-key'] ?? []) Object.assign(columnKeys, columnPair(pair, '--column-key'))
  const footerKey = options['footer-key'] ?? env.PARQUET_BLOOM_FOOTER_KEY ?? fromFile.footerKey
  const aadPrefix = options['aad-prefix'] ?? env.PARQUET_BLOOM_AAD_PREFIX ?? fromFile.aadPrefix
  for (const secret of [footerKey, aadPrefix, ...Object.values(columnKeys)]) if (typeof secret === 'string') secrets.add(secret)
  if (footerKey === undefined && aadPrefix === undefined && Object.keys(columnKeys).length === 0) return undefined
  /** @type {import('../index.js').DecryptionOptions} */
  const decryption = { columnKeys: Object.fromEntries(Object.entries(columnKeys).map(([path, key]) => [path, keyValue(key)])) }
  if (footerKey !== undefined) decryption.footerKey = keyValue(footerKey)
  if (aadPrefix !== undefined) decryption.aadPrefix = keyValue(aadPrefix)
  return decryption
}

/**
 * A --key-file's keys, checked to be strings.
 * @param {string} file
 * @returns {{ footerKey?: string, aadPrefix?: string, columnKeys?: Record<string, string> }}
 */
function readKeyFile(file) {
  let parsed
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    // Neither the file's content nor the JSON parser's excerpt of it may reach the output.
    const code = /** @type {{ code?: string } | null | undefined} */ (error)?.code
    throw new UsageError(`--key-file ${file}: cannot read it as JSON (${code ?? 'invalid JSON'})`)
  }
  const ok = parsed && typeof parsed === 'object' &&
    ['footerKey', 'aadPrefix'].every((k) => parsed[k] === undefined || typeof parsed[k] === 'string') &&
    (parsed.columnKeys === undefined ||
      (typeof parsed.columnKeys === 'object' && Object.values(parsed.columnKeys).every((v) => typeof v === 'string')))
  if (!ok) {
    throw new UsageError(`--key-file ${file}: expected { "footerKey": "…", "columnKeys": { "path": "…" }, "aadPrefix": "…" } with ` +
      'string values')
  }
  return parsed
}

/** @param {string | undefined} text */
function splitPairs(text) {
  return text ? text.split(',').filter((p) => p !== '') : []
}

/**
 * @param {string} pair path=key
 * @param {string} where the option or variable it came from, for messages
 */
function columnPair(pair, where) {
  const at = pair.indexOf('=')
  if (at <= 0 || at === pair.length - 1) throw new UsageError(`${where} takes path=key (the key is not shown)`)
  return { [pair.slice(0, at)]: pair.slice(at + 1) }
}

/**
 * 'hex:00ff…' → bytes; any other text is its UTF-8 bytes (openParquet's rule for strings).
 * @param {string} text
 * @returns {string | Uint8Array}
 */
function keyValue(text) {
  if (!text.startsWith('hex:')) return text
  const hex = text.slice(4)
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) throw new UsageError('a hex: key must be an even number of hex digits (the key is not shown)')
  secrets.add(hex)
  return Uint8Array.from(/** @type {RegExpMatchArray} */ (hex.match(/../g)), (h) => parseInt(h, 16)) // checked above: pairs of digits
}
