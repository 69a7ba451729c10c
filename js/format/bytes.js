// Byte-array helpers the decoders share (decrypted modules, pages read in parts).
/**
 * The parts, concatenated.
 * @param {Uint8Array[]} parts
 * @returns {Uint8Array}
 */
export function concatBytes(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * `first` then `second`: a view across both when `second` follows `first` in the same buffer (two reads of
 * memory the caller already holds, as a buffer source gives them), otherwise a copy.
 * @param {Uint8Array} first
 * @param {Uint8Array} second
 * @returns {Uint8Array}
 */
export function joinBytes(first, second) {
  if (first.buffer === second.buffer && first.byteOffset + first.length === second.byteOffset) {
    return new Uint8Array(first.buffer, first.byteOffset, first.length + second.length)
  }
  return concatBytes([first, second])
}

/**
 * Whether two byte arrays hold the same bytes.
 * @param {ArrayLike<number>} a
 * @param {ArrayLike<number>} b
 */
export function sameBytes(a, b) {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
