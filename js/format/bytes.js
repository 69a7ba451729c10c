// Byte-array helpers the decoders share (decrypted modules, pages read in parts).
/** The parts, concatenated. */
export function concatBytes(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
