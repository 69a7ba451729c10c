// CRC-32 (IEEE 802.3, the zlib/gzip polynomial), which parquet.thrift PageHeader.crc carries for the
// page's bytes as stored (after compression): a page whose checksum disagrees is not used.

/** @type {Int32Array | null} */
let table = null

function makeTable() {
  const t = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    t[n] = c
  }
  return t
}

/**
 * The CRC-32 of `bytes` as a signed 32-bit integer (how Thrift's i32 field holds it).
 * @param {Uint8Array} bytes
 */
export function crc32(bytes) {
  table ??= makeTable()
  let c = -1
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8)
  return (c ^ -1) | 0
}
