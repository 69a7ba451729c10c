// Matches byte-string candidates against a PLAIN BYTE_ARRAY ([u32 length][bytes]…) or
// FIXED_LEN_BYTE_ARRAY (fixed width) value section in place (parquet-format Encodings.md "Plain"), for
// exact lookups (probe's confirm option): no object per value. Keys sit in a small hash table keyed by length and the
// last (up to) 4 bytes, so most values cost their length, one 32-bit tail and one table load; ids that
// share a long prefix (as generated keys and UUIDs do) differ in their tail. A section that runs out of
// bytes before the values the levels announce throws the caller's error (PageDecodeError): this module
// is loaded on demand and imports nothing of the main bundle.

/**
 * The last min(length, 4) bytes at `at`, as a little-endian word: the part of a value the table hashes.
 * @param {Uint8Array} bytes
 * @param {number} at
 * @param {number} length
 */
function tailWord(bytes, at, length) {
  if (length >= 4) {
    const t = at + length - 4
    return bytes[t] | bytes[t + 1] << 8 | bytes[t + 2] << 16 | bytes[t + 3] << 24
  }
  if (length === 0) return 0
  return bytes[at] | (length > 1 ? bytes[at + 1] << 8 : 0) | (length > 2 ? bytes[at + 2] << 16 : 0)
}

// Lengths below this are marked in a per-length table, so a value of a length no key has costs no tail.
const LENGTH_MARKS = 4096

/**
 * The table slot of a (length, tail) pair, in a table of 2^bits slots.
 * @type {(length: number, tail: number, shift: number) => number}
 */
const slotOf = (length, tail, shift) => (Math.imul(tail ^ Math.imul(length, 0x9e3779b1), 0x85ebca6b) >>> shift) | 0

/**
 * The keys' lookup table, built once per matcher: per slot the first key hashed there, the others
 * chained through `next`; about 64 slots per key (at least 1024), so a value that is no key rarely
 * finds any.
 * @param {Uint8Array[]} keys distinct keys; a hit records the key's index
 * @param {(message: string) => Error} fail the error a malformed section throws
 */
export function plainBinaryKeys(keys, fail) {
  const bits = Math.min(16, Math.max(10, Math.ceil(Math.log2(Math.max(1, keys.length) * 64))))
  const shift = 32 - bits
  const first = new Int32Array(1 << bits).fill(-1)
  const next = new Int32Array(keys.length).fill(-1)
  const lengths = new Int32Array(keys.length)
  const tails = new Int32Array(keys.length)
  // Every key's bytes in one array (key g at starts[g]): the compare loop then reads two Uint8Arrays only.
  const starts = new Int32Array(keys.length + 1)
  for (let g = 0; g < keys.length; g++) starts[g + 1] = starts[g] + keys[g].length
  const keyBytes = new Uint8Array(starts[keys.length])
  keys.forEach((key, g) => keyBytes.set(key, starts[g]))
  let maxLength = -1
  for (const key of keys) if (key.length > maxLength) maxLength = key.length
  const hasLength = new Uint8Array(Math.min(maxLength + 1, LENGTH_MARKS))
  for (let g = keys.length - 1; g >= 0; g--) {
    const key = keys[g]
    const tail = tailWord(key, 0, key.length)
    const slot = slotOf(key.length, tail, shift)
    lengths[g] = key.length
    tails[g] = tail
    next[g] = first[slot]
    first[slot] = g
    if (key.length < LENGTH_MARKS) hasLength[key.length] = 1
  }
  return { maxLength, hasLength, shift, first, next, lengths, tails, starts, keyBytes, fail }
}

/** @typedef {ReturnType<typeof plainBinaryKeys>} PlainBinaryKeys */

/**
 * Hits of a BYTE_ARRAY section: per value the index of the key it equals, or -1.
 * @param {Uint8Array} bytes the value section (it may run on past the values: later bytes are ignored, as by hyparquet)
 * @param {number} count values the levels say the section holds
 * @param {PlainBinaryKeys} table
 * @returns {Int32Array}
 */
export function scanPlainByteArray(bytes, count, table) {
  const hits = new Int32Array(count).fill(-1)
  // The table's arrays in locals, the lookup written out: this loop runs once per value.
  const { maxLength, hasLength, shift, first, next, lengths, tails, starts, keyBytes } = table
  const end = bytes.length
  let at = 0
  for (let i = 0; i < count; i++) {
    if (at + 4 > end) throw sectionEnded(table, i, count, end)
    // Read as a signed int32: a length of 2 GiB or more (past any page) reads negative and is refused.
    const length = bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16 | bytes[at + 3] << 24
    at += 4
    if (length < 0 || length > end - at) throw lengthPastEnd(table, i, length, end - at)
    if (length <= maxLength && (length >= LENGTH_MARKS || hasLength[length] !== 0)) {
      const tail = tailWord(bytes, at, length)
      for (let g = first[slotOf(length, tail, shift)]; g >= 0; g = next[g]) {
        if (tails[g] === tail && lengths[g] === length && equalAt(bytes, at, keyBytes, starts[g], length)) {
          hits[i] = g
          break
        }
      }
    }
    at += length
  }
  return hits
}

/**
 * Hits of a FIXED_LEN_BYTE_ARRAY section of `width`-byte values: keys of other lengths never match.
 * @param {Uint8Array} bytes
 * @param {number} count
 * @param {number} width
 * @param {PlainBinaryKeys} table
 * @returns {Int32Array}
 */
export function scanPlainFixed(bytes, count, width, table) {
  if (count * width > bytes.length) {
    throw table.fail(`${count} values of ${width} bytes need ${count * width} bytes, the PLAIN section has ${bytes.length}`)
  }
  const hits = new Int32Array(count).fill(-1)
  const { shift, first, next, lengths, tails, starts, keyBytes } = table
  if (!lengths.includes(width)) return hits
  for (let i = 0, at = 0; i < count; i++, at += width) {
    const tail = tailWord(bytes, at, width)
    for (let g = first[slotOf(width, tail, shift)]; g >= 0; g = next[g]) {
      if (tails[g] === tail && lengths[g] === width && equalAt(bytes, at, keyBytes, starts[g], width)) {
        hits[i] = g
        break
      }
    }
  }
  return hits
}

// The errors are made out of line: a template literal inside the scan loop made V8's optimized code for
// it four times slower (measured with --no-use-osr, the code every call after the first runs).
/**
 * @param {PlainBinaryKeys} table
 * @param {number} i
 * @param {number} count
 * @param {number} end
 */
function sectionEnded(table, i, count, end) {
  return table.fail(`the PLAIN values end after ${i} of the ${count} values the levels say (${end} bytes)`)
}

/**
 * @param {PlainBinaryKeys} table
 * @param {number} i
 * @param {number} length
 * @param {number} remaining
 */
function lengthPastEnd(table, i, length, remaining) {
  return table.fail(`value ${i} of a PLAIN section claims ${length >>> 0} bytes, ${remaining} remain`)
}

/**
 * @param {Uint8Array} bytes
 * @param {number} at
 * @param {Uint8Array} keyBytes
 * @param {number} start
 * @param {number} length
 */
function equalAt(bytes, at, keyBytes, start, length) {
  for (let j = 0; j < length; j++) if (bytes[at + j] !== keyBytes[start + j]) return false
  return true
}
