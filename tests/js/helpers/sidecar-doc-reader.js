// An independent reader of sidecar indexes, written from docs/sidecar-index.md, docs/table-index.md and Iceberg's
// puffin-spec.md alone (no code of js/sidecar or js/index-builder): the Puffin container, format 1's layout, directory
// and block-major regions, format 2's files blob, details pages, path hashes, identities and bit slices, and a table
// index's snapshot record. Every CRC is checked; anything the documents do not describe is reported in `problems`
// (a test asserts there are none). Hashing is hyparquet's XXH64 (another implementation than ours).
import { xxhash64 } from 'hyparquet/src/xxhash.js'

const MAGIC = [0x50, 0x46, 0x41, 0x31]
const utf8 = new TextDecoder('utf-8', { fatal: true })
const encode = (s) => new TextEncoder().encode(s)

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
/** CRC-32 (IEEE, as in gzip), unsigned. */
export function crc32(bytes) {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const hex8 = (u) => u.toString(16).padStart(8, '0')
/** The form both formats record (docs/sidecar-index.md): the unsigned CRC in 8 lower-case hex digits. */
export const crcText = (u) => hex8(u >>> 0)
/**
 * The form indexes written before recorded, which readers still accept (docs/sidecar-index.md): the CRC as a signed
 * 32-bit number in hex padded with '0' on the left to 8 characters — '-41598279', '-bd50aeb', '0-abcdef' for -0xabcdef.
 */
export const legacyCrcText = (u) => (u | 0).toString(16).padStart(8, '0')

/** XXH64 seed 0, as a bigint. */
export const xxh64 = (bytes) => xxhash64(bytes)

/** The SBBF check of one 32-byte block (BloomFilter.md): 8 salted bits, one per 32-bit word. */
const SALT = [0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31]
export const blockIndex = (hash, numBlocks) => Number(((hash >> 32n) * BigInt(numBlocks)) >> 32n)
/** The 8 bit positions (within the whole bitset) a hash selects in a bitset of numBytes. */
export function bitPositions(hash, numBytes) {
  const b = blockIndex(hash, numBytes / 32)
  const low = Number(hash & 0xffffffffn)
  return SALT.map((s, w) => b * 256 + w * 32 + (Math.imul(low, s) >>> 27))
}
export const bitsetHas = (bitset, hash) => bitPositions(hash, bitset.length).every((p) => (bitset[p >> 3] >> (p & 7)) & 1)

function readPuffin(bytes, problems) {
  const n = bytes.length
  const dv = new DataView(bytes.buffer, bytes.byteOffset, n)
  for (let i = 0; i < 4; i++) {
    if (bytes[i] !== MAGIC[i] || bytes[n - 4 + i] !== MAGIC[i]) problems.push('magic')
  }
  const flags = dv.getUint32(n - 8, true)
  if (flags !== 0) problems.push(`flags ${flags}`)
  const size = dv.getInt32(n - 12, true)
  const payloadStart = n - 12 - size
  for (let i = 0; i < 4; i++) if (bytes[payloadStart - 4 + i] !== MAGIC[i]) problems.push('footer magic')
  const footer = JSON.parse(utf8.decode(bytes.subarray(payloadStart, n - 12)))
  const footerKeys = Object.keys(footer).filter((k) => k !== 'blobs' && k !== 'properties')
  if (footerKeys.length) problems.push(`footer keys ${footerKeys}`)
  for (const [k, v] of Object.entries(footer.properties ?? {})) {
    if (typeof v !== 'string') problems.push(`footer property ${k} not a string`)
  }
  if (!/^parquet-bloom /.test(footer.properties?.['created-by'] ?? '')) problems.push('created-by')
  const known = ['type', 'fields', 'snapshot-id', 'sequence-number', 'offset', 'length', 'properties']
  let end = 4
  for (const b of footer.blobs) {
    const extra = Object.keys(b).filter((k) => !known.includes(k))
    if (extra.length) problems.push(`blob ${b.type}: keys ${extra}`)
    for (const k of known.slice(0, 6)) if (!(k in b)) problems.push(`blob ${b.type}: no ${k}`)
    if (!Array.isArray(b.fields)) problems.push(`blob ${b.type}: fields`)
    for (const [k, v] of Object.entries(b.properties ?? {})) if (typeof v !== 'string') problems.push(`blob ${b.type} property ${k}`)
    if (b.offset < end || b.offset + b.length > payloadStart - 4) problems.push(`blob ${b.type} outside [${end}, footer)`)
    if (b.offset !== end) problems.push(`blob ${b.type}: gap before it (${b.offset} after ${end})`)
    end = b.offset + b.length
  }
  if (end !== payloadStart - 4) problems.push(`gap before footer: ${payloadStart - 4 - end}`)
  const blob = (b) => bytes.subarray(b.offset, b.offset + b.length)
  return { footer, blob, footerSize: size }
}

function checkCrc(name, bytes, prop, problems) {
  const c = crc32(bytes)
  const want = crcText(c)
  if (prop !== want) problems.push(`${name}: crc32 ${prop}, computed ${want}`)
}

/**
 * Reads an index's bytes as the documents describe them.
 * @returns {{ format: 1|2, problems: string[], files: Array<{ path, size, validator, numRows?, rowGroups: Array<{ numRows,
 *   chunks: Record<string, { bitset: Uint8Array, min, max } | null> }>, columns?: object }>, columns: string[], types, footer,
 *   sizes: object, table?: object }}
 */
export function readSidecarDoc(input) {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input)
  const problems = []
  const { footer, blob, footerSize } = readPuffin(bytes, problems)
  const types = footer.blobs.map((b) => b.type)
  const out = types.includes('parquet-bloom-files-v2') ? readFormat2(footer, blob, problems) : readFormat1(footer, blob, problems)
  return { ...out, problems, footer, footerSize, length: bytes.length }
}

function readFormat1(footer, blob, problems) {
  const types = footer.blobs.map((b) => b.type)
  if (types.join() !== 'parquet-bloom-sbbf-bitsets-v1,parquet-bloom-directory-v1') problems.push(`format 1 blobs ${types}`)
  const [bits, dirMeta] = footer.blobs
  for (const b of footer.blobs) {
    if (b.fields.length || String(b['snapshot-id']) !== '-1' || String(b['sequence-number']) !== '-1') problems.push(`${b.type} ids`)
  }
  const dirBytes = blob(dirMeta)
  checkCrc('directory', dirBytes, dirMeta.properties?.crc32, problems)
  if (dirMeta.properties?.version !== '1') problems.push('directory version property')
  const extraDirProps = Object.keys(dirMeta.properties ?? {}).filter((k) => !['crc32', 'version'].includes(k))
  if (extraDirProps.length) problems.push(`directory properties ${extraDirProps}`)
  const extraBitProps = Object.keys(bits.properties ?? {}).filter((k) => k !== 'layout')
  if (extraBitProps.length) problems.push(`bitsets properties ${extraBitProps}`)
  const dir = JSON.parse(utf8.decode(dirBytes))
  const layout = bits.properties?.layout === undefined ? null : JSON.parse(bits.properties.layout)
  const dirKeys = ['format', 'version', 'writer', 'fpp', 'columns', 'regions', 'files']
  const extra = Object.keys(dir).filter((k) => !dirKeys.includes(k))
  if (extra.length) problems.push(`directory keys ${extra}`)
  if (dir.format !== 'parquet-bloom-sidecar' || dir.version !== 1) problems.push('directory format/version')
  if (layout) {
    const lk = Object.keys(layout).filter((k) => !['fpp', 'columns', 'types', 'regions'].includes(k))
    if (lk.length) problems.push(`layout keys ${lk}`)
    if (layout.fpp !== dir.fpp || JSON.stringify(layout.columns) !== JSON.stringify(dir.columns)) problems.push('layout fpp/columns')
    if (layout.regions.length !== dir.regions.length) problems.push('layout regions count')
    layout.regions.forEach((r, i) => {
      const d = dir.regions[i]
      if (r[0] !== d.offset || r[1] !== d.count || r[2] !== d.numBytes) problems.push(`layout region ${i}`)
    })
  }
  const bitsBytes = blob(bits)
  const regionUse = dir.regions.map((r) => new Set())
  for (const r of dir.regions) {
    if (r.numBytes % 32 || (r.numBytes & (r.numBytes - 1))) problems.push('region numBytes')
    if (r.offset + r.count * r.numBytes > bitsBytes.length) problems.push('region outside blob')
  }
  let covered = 0
  for (const r of dir.regions) covered += r.count * r.numBytes
  if (covered !== bitsBytes.length) problems.push(`bitsets blob ${bitsBytes.length} bytes, regions cover ${covered}`)
  const files = dir.files.map((f) => {
    const fk = Object.keys(f).filter((k) => !['path', 'size', 'validator', 'numRows', 'columns', 'rowGroups'].includes(k))
    if (fk.length) problems.push(`file keys ${fk}`)
    const rowGroups = f.rowGroups.map((g) => {
      const gk = Object.keys(g).filter((k) => !['numRows', 'chunks'].includes(k))
      if (gk.length) problems.push(`row group keys ${gk}`)
      const chunks = {}
      for (const [col, c] of Object.entries(g.chunks)) {
        if (!(col in f.columns)) problems.push(`chunk of undescribed column ${col}`)
        if (c === null) { chunks[col] = null; continue }
        const [region, k, numBytes, min, max] = c
        const r = dir.regions[region]
        if (r.numBytes !== numBytes || k < 0 || k >= r.count) problems.push('chunk placement')
        if (regionUse[region].has(k)) problems.push('chunk slot used twice')
        regionUse[region].add(k)
        if (layout) {
          const [, , , ci, ti] = layout.regions[region]
          if (layout.columns[ci] !== col || JSON.stringify(layout.types[ti]) !== JSON.stringify(f.columns[col])) {
            problems.push(`chunk in region of another column/type (${col})`)
          }
        }
        const bitset = new Uint8Array(numBytes)
        for (let b = 0; b < numBytes / 32; b++) {
          const at = r.offset + (b * r.count + k) * 32
          bitset.set(bitsBytes.subarray(at, at + 32), b * 32)
        }
        chunks[col] = { bitset, min, max }
      }
      return { numRows: g.numRows, chunks }
    })
    return { path: f.path, size: f.size, validator: f.validator, numRows: f.numRows, columns: f.columns, rowGroups }
  })
  dir.regions.forEach((r, i) => {
    if (regionUse[i].size !== r.count) problems.push(`region ${i}: ${regionUse[i].size}/${r.count} slots used`)
  })
  return { format: 1, columns: dir.columns, types: layout?.types, files, fpp: dir.fpp, directory: dir,
    sizes: { directory: dirBytes.length, bitsets: bitsBytes.length } }
}

/** LEB128 unsigned varints (as a number; exact below 2^53). */
function reader(bytes) {
  let at = 0
  const self = {
    get at() { return at },
    byte() { return bytes[at++] },
    varint() {
      let v = 0; let mul = 1; let b
      do { b = bytes[at++]; v += (b & 0x7f) * mul; mul *= 128 } while (b & 0x80)
      return v
    },
    text() { const n = self.varint(); const s = utf8.decode(bytes.subarray(at, at + n)); at += n; return s },
    f64() { const v = new DataView(bytes.buffer, bytes.byteOffset + at, 8).getFloat64(0, true); at += 8; return v },
  }
  return self
}

const u64le = (bytes, at) => new DataView(bytes.buffer, bytes.byteOffset + at, 8).getBigUint64(0, true)

function readFormat2(footer, blob, problems) {
  const byType = Object.fromEntries(footer.blobs.map((b) => [b.type, b]))
  const types = footer.blobs.map((b) => b.type)
  const filesMeta = byType['parquet-bloom-files-v2']
  const filesVersion = Number(filesMeta.properties?.version)
  const snapshot = byType['parquet-bloom-table-snapshot-v1'] ? ['parquet-bloom-table-snapshot-v1'] : []
  const expected = ['parquet-bloom-sbbf-bitslices-v2', ...snapshot,
    'parquet-bloom-details-v2', 'parquet-bloom-path-hashes-v2', ...(filesVersion === 3 ? ['parquet-bloom-identities-v3'] : []),
    'parquet-bloom-files-v2']
  if (types.join() !== expected.join()) problems.push(`format 2 blobs ${types}`)
  const crcOf = (type) => { const b = byType[type]; if (b) checkCrc(type, blob(b), b.properties?.crc32, problems) }
  for (const t of types) if (t !== 'parquet-bloom-sbbf-bitslices-v2') crcOf(t)
  const layout = JSON.parse(filesMeta.properties.layout)
  const lk = Object.keys(layout).filter((k) => !['version', 'fpp', 'writer', 'columns', 'types', 'regions', 'segments', 'files',
    'overflow', 'classed', 'pages', 'pageFiles', 'unreadable'].includes(k))
  if (lk.length) problems.push(`layout keys ${lk}`)
  if (layout.version !== filesVersion) problems.push('layout version != files version property')
  const N = layout.files
  const fb = blob(filesMeta)
  const dv = new DataView(fb.buffer, fb.byteOffset, fb.length)
  let at = 0
  const idWidth = filesVersion === 3 ? 4 : 8
  const locators = []
  for (let i = 0; i < N; i++) locators.push(idWidth === 4 ? dv.getUint32(at + i * 4, true) : dv.getBigUint64(at + i * 8, true))
  at += N * idWidth
  const rgByte = fb.subarray(at, at + N); at += N
  const rgCounts = []
  let ov = 0
  for (let i = 0; i < N; i++) {
    if (rgByte[i] === 255) { rgCounts.push(dv.getUint32(at + ov * 4, true)); ov++ } else rgCounts.push(rgByte[i])
  }
  if (ov !== layout.overflow) problems.push('overflow count')
  at += layout.overflow * 4
  const classes = {}
  for (const c of layout.classed) { classes[c] = fb.subarray(at, at + N); at += N }
  const pages = []
  for (let p = 0; p < layout.pages; p++) {
    pages.push({ offset: dv.getFloat64(at, true), length: dv.getUint32(at + 8, true), crc: dv.getUint32(at + 12, true) })
    at += 16
  }
  const digests = []
  if (filesVersion === 3) for (let p = 0; p < layout.pages; p++) { digests.push(dv.getBigUint64(at, true)); at += 8 }
  if (at !== fb.length) problems.push(`files blob: ${fb.length} bytes, layout accounts for ${at}`)
  if (layout.pages !== Math.ceil(N / layout.pageFiles)) problems.push('pages != ceil(files / pageFiles)')

  // details pages
  const details = blob(byType['parquet-bloom-details-v2'])
  const entries = []
  let pageEnd = 0
  pages.forEach((pg, p) => {
    const bytes = details.subarray(pg.offset, pg.offset + pg.length)
    if (pg.offset !== pageEnd) problems.push(`details page ${p} at ${pg.offset}, not ${pageEnd}`)
    pageEnd = pg.offset + pg.length
    if (crc32(bytes) !== pg.crc) problems.push(`details page ${p}: crc`)
    const r = reader(bytes)
    const n = r.varint()
    const want = Math.min(layout.pageFiles, N - p * layout.pageFiles)
    if (n !== want) problems.push(`page ${p}: ${n} files, not ${want}`)
    const es = Array.from({ length: n }, () => ({}))
    for (const e of es) e.path = r.text()
    for (const e of es) e.size = r.varint()
    for (const e of es) e.validator = r.byte() === 1 ? r.text() : null
    for (const e of es) e.numRows = r.varint()
    for (const e of es) { const g = r.varint(); e.rowGroups = Array.from({ length: g }, () => ({ numRows: r.varint(), chunks: {} })) }
    for (const col of layout.columns) {
      for (const e of es) {
        const has = r.byte()
        if (has === 0) continue
        if (has !== 1) problems.push(`page ${p}: column byte ${has}`)
        for (const g of e.rowGroups) {
          const bound = () => {
            const t = r.byte()
            return t === 0 ? null : t === 1 ? r.f64() : t === 2 ? r.text() : (problems.push(`tag ${t}`), null)
          }
          g.chunks[col] = { min: bound(), max: bound() }
        }
      }
    }
    if (r.at !== bytes.length) problems.push(`details page ${p}: ${bytes.length - r.at} bytes left over`)
    entries.push(...es)
  })
  if (pageEnd !== details.length) problems.push(`details blob ${details.length} bytes, pages ${pageEnd}`)
  entries.forEach((e, i) => { if (e.rowGroups.length !== rgCounts[i]) problems.push(`file ${i}: row-group count`) })

  // identities, path hashes, digests
  const ph = blob(byType['parquet-bloom-path-hashes-v2'])
  if (ph.length !== N * 8) problems.push('path hashes length')
  const ids = filesVersion === 3 ? blob(byType['parquet-bloom-identities-v3']) : null
  if (ids && ids.length !== N * 8) problems.push('identities length')
  entries.forEach((e, i) => {
    const id = xxh64(encode(`${e.path}\n${e.size}\n${e.validator ?? ''}`))
    e.identity = id
    if (filesVersion === 3) {
      if (locators[i] !== Number(id & 0xffffffffn)) problems.push(`file ${i}: locator`)
      if (u64le(ids, i * 8) !== id) problems.push(`file ${i}: identity`)
    } else if (locators[i] !== id) problems.push(`file ${i}: identity (v2)`)
    if (u64le(ph, i * 8) !== xxh64(encode(e.path))) problems.push(`file ${i}: path hash`)
  })
  if (ids) {
    digests.forEach((d, p) => {
      const slice = ids.subarray(p * layout.pageFiles * 8, Math.min(N, (p + 1) * layout.pageFiles) * 8)
      if (xxh64(slice) !== d) problems.push(`page ${p}: digest`)
    })
  }

  // bit slices: regions, segments, classes, slots
  const slices = blob(byType['parquet-bloom-sbbf-bitslices-v2'])
  let sliceBytes = 0
  for (const [offset, count, numBytes] of layout.regions) {
    if (numBytes < 32 || (numBytes & (numBytes - 1))) problems.push('region numBytes')
    const rowLen = Math.ceil(count / 8)
    if (offset !== sliceBytes) problems.push(`region at ${offset}, not ${sliceBytes}`)
    sliceBytes += rowLen * numBytes * 8
  }
  if (sliceBytes !== slices.length) problems.push(`bit slices blob ${slices.length} bytes, regions ${sliceBytes}`)
  const unreadable = new Set()
  for (const [c, f, g, n] of layout.unreadable ?? []) for (let k = 0; k < n; k++) unreadable.add(`${c}/${f}/${g + k}`)
  const used = layout.regions.map(() => 0)
  const segStart = (s) => (s === 0 ? 0 : layout.segments[s - 1])
  for (let s = 0; s < layout.segments.length; s++) {
    for (let ci = 0; ci < layout.columns.length; ci++) {
      const regs = layout.regions.map((r, i) => ({ r, i })).filter(({ r }) => r[3] === ci && r[5] === s)
      if (!layout.classed.includes(ci) && regs.length > 1) problems.push(`segment ${s} column ${ci}: ${regs.length} regions, not classed`)
      const next = regs.map(() => 0)
      for (let f = segStart(s); f < layout.segments[s]; f++) {
        const cls = layout.classed.includes(ci) ? classes[ci][f] : 0
        const e = entries[f]
        const hasCol = e.rowGroups.length === 0 ? null : layout.columns[ci] in (e.rowGroups[0].chunks)
        if (cls === 255 || regs.length === 0) {
          if (hasCol) problems.push(`file ${f}: bounds of column ${ci} but no region`)
          continue
        }
        if (hasCol === false && !layout.classed.includes(ci)) {
          // not classed: the doc says every file of the segment is in the region; a file without the column?
          problems.push(`file ${f} lacks column ${ci} (no bounds) yet the column is not classed`)
          continue
        }
        const { r, i } = regs[cls]
        const [offset, count, numBytes, , ti] = r
        const rowLen = Math.ceil(count / 8)
        e.rowGroups.forEach((g, gi) => {
          const k = next[cls]++
          if (k >= count) { problems.push(`region ${i} overfull`); return }
          const bitset = new Uint8Array(numBytes)
          for (let p = 0; p < numBytes * 8; p++) {
            if ((slices[offset + p * rowLen + (k >> 3)] >> (k & 7)) & 1) bitset[p >> 3] |= 1 << (p & 7)
          }
          const col = layout.columns[ci]
          const bounds = g.chunks[col] ?? { min: null, max: null }
          g.chunks[col] = unreadable.has(`${ci}/${f}/${gi}`) ? null : { bitset, min: bounds.min, max: bounds.max, type: layout.types[ti] }
        })
      }
      regs.forEach(({ i }, c) => { used[i] += next[c] })
    }
  }
  layout.regions.forEach((r, i) => { if (used[i] !== r[1]) problems.push(`region ${i}: ${used[i]} of ${r[1]} slots`) })
  if (layout.segments.at(-1) !== N) problems.push('segments end != files')

  let table
  const tb = byType['parquet-bloom-table-snapshot-v1']
  if (tb) table = JSON.parse(utf8.decode(blob(tb)))
  return { format: 2, filesVersion, columns: layout.columns, types: layout.types, files: entries, fpp: layout.fpp, layout, table,
    sizes: Object.fromEntries(footer.blobs.map((b) => [b.type, b.length])) }
}
