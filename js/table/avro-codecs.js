// The block codecs of Avro object container files that Iceberg writers use, shared by both Avro decoders
// (js/table/avro.js's avsc path and js/table/avro-interpreted.js): `null`, and `deflate`, which is raw
// DEFLATE (RFC 1951) undone by the runtime's DecompressionStream.

/**
 * Raw DEFLATE undone: the runtime's DecompressionStream, or zlib where a Node predates 'deflate-raw'.
 * @param {Uint8Array} bytes a block of an Avro file read from a store (an ArrayBuffer's, never shared)
 */
async function inflateRaw(bytes) {
  let stream
  try {
    stream = new DecompressionStream('deflate-raw')
  } catch {
    const { inflateRawSync } = await import('node:zlib')
    return new Uint8Array(inflateRawSync(bytes))
  }
  const blob = new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)])
  return new Uint8Array(await new Response(blob.stream().pipeThrough(stream)).arrayBuffer())
}

/** @type {Record<string, (bytes: Uint8Array) => Promise<Uint8Array>>} */
export const AVRO_CODECS = {
  null: async (bytes) => bytes,
  deflate: inflateRaw,
}
