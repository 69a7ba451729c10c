// Hostile Parquet files made at test time from a sample file we write ourselves (never committed):
// broken magic, footer lengths, truncations, garbage and Thrift bombs in the footer, and every way a
// bloom filter's offset, length or header can be wrong. Each case says what it must end in. The files
// are taken apart and rebuilt with testkit/file-surgery.js; the mutation fuzzer is testkit/mutation-fuzzer.js.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

import { rng } from '../../../testkit/reference-sbbf.js'
import { writeHyparquetSample } from '../../../testkit/sample-files.js'
import { ByteWriter, cloneStruct, decodeStruct, encodeStruct, getField, removeField, setField, struct, T } from '../../../testkit/thrift-writer.js'

import { assemble, buildTruth, columnChunk, columnMetaData, concat, MAGIC, MiB, parseParquet, rebuild, TARGET } from '../../../testkit/file-surgery.js'

/**
 * Writes the sample file and the hostile files made from it into `dir`.
 * Each case: { name, path, bytes, open?: openParquet options, expect } where expect is
 *  - { code, message? }                openParquet (or the probe) rejects with this ParquetBloomError code
 *  - { opens: true }                   openParquet succeeds (a footer with no row groups: nothing to probe)
 *  - { unknown: RegExp }               TARGET's row group answers 'unknown' for every value, reason matching;
 *                                      the others answer exactly
 *  - { answers: true }                 every row group answers exactly (the filter is odd but usable)
 */
export async function buildCorpus(dir) {
  await mkdir(path.join(dir, 'small'), { recursive: true })
  const sample = await writeHyparquetSample(dir)
  const base = parseParquet(new Uint8Array(await readFile(sample.path)))
  const small = await writeHyparquetSample(path.join(dir, 'small'), { rows: 60, rowGroupSize: 20 })
  const smallBytes = new Uint8Array(await readFile(small.path))
  const truth = buildTruth(sample)
  const cases = [...fileCases(base, smallBytes), ...footerCases(base), ...filterCases(base)]
  const seen = new Set()
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`duplicate case name ${c.name}`)
    seen.add(c.name)
    c.path = path.join(dir, `${c.name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.parquet`)
    await writeFile(c.path, c.bytes)
  }
  return { sample, base, truth, cases }
}

/** Whole-file damage: size, magic, footer length, truncation, garbage metadata, limits. */
function fileCases(base, smallBytes) {
  const { bytes, metadataOffset, metadataLength } = base
  const size = bytes.length
  const metadata = bytes.subarray(metadataOffset, size - 8)
  const data = bytes.subarray(0, metadataOffset)
  const f = base.filter(TARGET.rowGroup, TARGET.column)
  const malformed = { code: 'MALFORMED_FOOTER' }
  const withLength = (length) => assemble(data, metadata, { length })
  const random = rng(0xbadf00d)
  const garbage = Uint8Array.from({ length: metadataLength }, () => Math.floor(random() * 256))
  const cases = [
    { name: 'empty file', bytes: new Uint8Array(0), expect: malformed },
    { name: 'one byte', bytes: Uint8Array.of(0x50), expect: malformed },
    { name: 'PAR1 only', bytes: Uint8Array.from(MAGIC), expect: malformed },
    { name: 'PAR1PAR1', bytes: Uint8Array.from([...MAGIC, ...MAGIC]), expect: malformed },
    { name: 'eleven bytes', bytes: Uint8Array.from([...MAGIC, 0, 0, 0, ...MAGIC]), expect: malformed },
    { name: 'twelve bytes, footer length 0', bytes: Uint8Array.from([...MAGIC, 0, 0, 0, 0, ...MAGIC]), expect: malformed },
    { name: 'tail magic PAR0', bytes: assemble(data, metadata, { magic: [0x50, 0x41, 0x52, 0x30] }), expect: malformed },
    { name: 'tail magic lower case', bytes: assemble(data, metadata, { magic: [0x70, 0x61, 0x72, 0x31] }), expect: malformed },
    { name: 'tail magic PARE (encrypted footer)', bytes: assemble(data, metadata, { magic: [0x50, 0x41, 0x52, 0x45] }), expect: { code: 'ENCRYPTION_KEY_REQUIRED' } },
    { name: 'footer length 0', bytes: withLength(0), expect: malformed },
    { name: 'footer length 1', bytes: withLength(1), expect: malformed },
    { name: 'footer length 0x80000000 (negative as int32)', bytes: withLength(0x80000000), expect: malformed },
    { name: 'footer length 0xffffffff (-1 as int32)', bytes: withLength(0xffffffff), expect: malformed },
    { name: 'footer length larger than the file', bytes: withLength(size + 100), expect: malformed },
    { name: 'footer length reaching the leading magic', bytes: withLength(size - 8), expect: malformed },
    { name: 'footer length one past the file start', bytes: withLength(size - 7), expect: malformed },
    { name: 'footer length covering all the data', bytes: withLength(size - 12), expect: malformed },
    { name: 'footer length one short', bytes: withLength(metadataLength - 1), expect: malformed },
    { name: 'footer length one long', bytes: withLength(metadataLength + 1), expect: malformed },
    { name: 'truncated at the footer start', bytes: bytes.slice(0, metadataOffset), expect: malformed },
    { name: 'truncated inside the metadata', bytes: bytes.slice(0, metadataOffset + Math.floor(metadataLength / 2)), expect: malformed },
    { name: 'truncated inside a bloom header', bytes: bytes.slice(0, f.offset + 5), expect: malformed },
    { name: 'truncated inside a bitset', bytes: bytes.slice(0, f.offset + f.headerLength + 700), expect: malformed },
    { name: 'truncated by one byte', bytes: bytes.slice(0, size - 1), expect: malformed },
    { name: 'truncated by the magic', bytes: bytes.slice(0, size - 4), expect: malformed },
    { name: 'garbage metadata', bytes: assemble(data, garbage), expect: malformed },
    { name: 'zeroed metadata', bytes: assemble(data, new Uint8Array(metadataLength)), expect: malformed },
    { name: 'metadata of 0xff', bytes: assemble(data, new Uint8Array(metadataLength).fill(0xff)), expect: malformed },
    { name: 'metadata is a lone STOP', bytes: assemble(data, Uint8Array.of(0)), expect: malformed },
    { name: 'footer over maxFooterBytes', bytes, open: { maxFooterBytes: 1000 }, expect: { code: 'TOO_LARGE' } },
    { name: 'tail read over maxBytes', bytes, open: { maxBytes: 4096, initialFetchSize: 64 * 1024 }, expect: { code: 'TOO_LARGE', message: /over maxBytes \(4096\)/ } },
    { name: 'footer read over maxBytes', bytes, open: { maxBytes: 1024, initialFetchSize: 8 }, expect: { code: 'TOO_LARGE', message: /over maxBytes \(1024\)/ } },
  ]
  // The leading magic is only checked when the tail read brings in the whole file (no extra request).
  const badHead = smallBytes.slice()
  badHead[0] = 0x51
  cases.push({ name: 'head magic wrong (whole file read)', bytes: badHead, open: { initialFetchSize: 64 * 1024 }, expect: malformed })
  const badHeadBig = bytes.slice()
  badHeadBig.set([0x50, 0x41, 0x52, 0x32], 0)
  cases.push({ name: 'head magic wrong (large file, whole-file read)', bytes: badHeadBig, open: { initialFetchSize: size }, expect: malformed })
  return cases
}

/** Footers that decode as Thrift but are not FileMetaData we can use, and Thrift bombs. */
function footerCases(base) {
  const malformed = { code: 'MALFORMED_FOOTER' }
  const edit = (name, fn, expect = malformed) => ({ name, bytes: rebuild(base, fn), expect })
  const schema = (meta) => getField(meta, 2).value.items
  const raw = (name, metadata, expect = malformed) => ({ name, bytes: assemble(base.bytes.subarray(0, base.metadataOffset), metadata), expect })
  const encoded = encodeStruct(base.meta)
  const fields = (meta, except) => {
    const copy = cloneStruct(meta)
    return removeField(copy, except)
  }

  // Writes the footer's real fields, then `bomb(w, lastId)` as the field(s) after them.
  const withTrailing = (name, bomb) => {
    const w = new ByteWriter()
    let last = 0
    for (const { id, type, value } of base.meta.fields) {
      w.fieldHeader(type === T.TRUE || type === T.FALSE ? (value ? T.TRUE : T.FALSE) : type, id, last)
      w.value(type, value)
      last = id
    }
    bomb(w, last)
    return raw(name, w.byte(T.STOP).bytes())
  }
  // The footer with field `id` replaced by raw bytes (everything else as written).
  const withField = (name, id, write) => {
    const w = new ByteWriter()
    let last = 0
    for (const { id: fid, type, value } of base.meta.fields) {
      if (fid === id) {
        write(w, last)
      } else {
        w.fieldHeader(type === T.TRUE || type === T.FALSE ? (value ? T.TRUE : T.FALSE) : type, fid, last)
        w.value(type, value)
      }
      last = fid
    }
    return raw(name, w.byte(T.STOP).bytes())
  }
  const deepStructs = (w, depth) => {
    for (let i = 0; i < depth; i++) w.byte(0x10 | T.STRUCT) // field 1 of the enclosing struct is a struct
    for (let i = 0; i <= depth; i++) w.byte(T.STOP)
  }
  const deepLists = (w, depth) => {
    for (let i = 0; i < depth; i++) w.byte(0x10 | T.LIST) // a one-element list of lists …
    w.byte(0x00)
  }

  return [
    edit('footer without schema', (meta) => removeField(meta, 2)),
    edit('footer without row_groups', (meta) => removeField(meta, 4)),
    edit('footer without num_rows', (meta) => removeField(meta, 3)),
    edit('schema of zero elements', (meta) => { getField(meta, 2).value.items = [] }),
    edit('schema field of the wrong type', (meta) => setField(meta, 2, T.I32, 7)),
    edit('row group missing a column chunk', (meta) => { getField(getField(meta, 4).value.items[1], 1).value.items.pop() }),
    edit('row group with an extra column chunk', (meta) => {
      const chunks = getField(getField(meta, 4).value.items[0], 1).value.items
      chunks.push(cloneStruct(chunks[0]))
    }),
    edit('root claims more children than the schema has', (meta) => setField(schema(meta)[0], 5, T.I32, schema(meta).length + 3)),
    edit('root claims fewer children than the schema has', (meta) => setField(schema(meta)[0], 5, T.I32, 2)),
    edit('root with negative children', (meta) => setField(schema(meta)[0], 5, T.I32, -1)),
    edit('leaf with unknown physical type', (meta) => setField(schema(meta)[1], 1, T.I32, 99)),
    edit('leaf with negative physical type', (meta) => setField(schema(meta)[1], 1, T.I32, -2)),
    edit('schema element without a name', (meta) => removeField(schema(meta)[3], 4)),
    edit('FIXED_LEN_BYTE_ARRAY leaf without type_length', (meta) => removeField(schema(meta).find((e) => getField(e, 1)?.value === 7), 2),
      { code: 'MALFORMED_FOOTER', message: /leaf fl is a FIXED_LEN_BYTE_ARRAY without a positive type_length/ }),
    edit('FIXED_LEN_BYTE_ARRAY leaf of width 0', (meta) => setField(schema(meta).find((e) => getField(e, 1)?.value === 7), 2, T.I32, 0),
      { code: 'MALFORMED_FOOTER', message: /FIXED_LEN_BYTE_ARRAY without a positive type_length/ }),
    edit('row group count mismatch with columns (no chunks)', (meta) => { getField(getField(meta, 4).value.items[2], 1).value.items = [] }),
    withField('schema list of 2^31 elements', 2, (w, last) => w.fieldHeader(T.LIST, 2, last).listHeader(T.STRUCT, 2 ** 31)),
    withField('schema list of 2^64-1 elements', 2, (w, last) => w.fieldHeader(T.LIST, 2, last).listHeader(T.STRUCT, 2n ** 64n - 1n)),
    withField('row_groups list of 2^31 elements', 4, (w, last) => w.fieldHeader(T.LIST, 4, last).listHeader(T.STRUCT, 2 ** 31)),
    withField('column chunk list of 2^31 elements', 4, (w, last) => {
      w.fieldHeader(T.LIST, 4, last).listHeader(T.STRUCT, 1)
      w.fieldHeader(T.LIST, 1, 0).listHeader(T.STRUCT, 2 ** 31)
    }),
    withTrailing('key_value_metadata list of 2^31 structs', (w, last) => w.fieldHeader(T.LIST, 5, Math.min(last, 4)).listHeader(T.STRUCT, 2 ** 31)),
    withTrailing('unknown list of 2^31 i64', (w, last) => w.fieldHeader(T.LIST, 20, last).listHeader(T.I64, 2 ** 31)),
    withTrailing('unknown list of 2^31 bools', (w, last) => w.fieldHeader(T.LIST, 20, last).listHeader(T.TRUE, 2 ** 31)),
    withTrailing('unknown map of 2^31 entries', (w, last) => w.fieldHeader(T.MAP, 20, last).varint(2 ** 31).byte((T.I32 << 4) | T.I32)),
    withTrailing('unknown binary of 2^62 bytes', (w, last) => w.fieldHeader(T.BINARY, 20, last).varint(2n ** 62n)),
    withTrailing('unknown binary of 2^31 bytes', (w, last) => w.fieldHeader(T.BINARY, 20, last).varint(2 ** 31)),
    withTrailing('varint of 11 bytes', (w, last) => w.fieldHeader(T.I64, 20, last).raw([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])),
    withTrailing('unknown wire type 13', (w, last) => w.fieldHeader(13, 20, last)),
    withTrailing('structs nested 100000 deep', (w, last) => {
      w.fieldHeader(T.STRUCT, 20, last)
      deepStructs(w, 100000)
    }),
    withTrailing('lists nested 100000 deep', (w, last) => {
      w.fieldHeader(T.LIST, 20, last).byte(0x10 | T.LIST)
      deepLists(w, 100000)
    }),
    withField('created_by of 2^62 bytes', 6, (w, last) => w.fieldHeader(T.BINARY, 6, last).varint(2n ** 62n)),
    withField('created_by of 2^31 bytes', 6, (w, last) => w.fieldHeader(T.BINARY, 6, last).varint(2 ** 31)),
    edit('statistics nested 100000 deep', (meta) => {
      const w = new ByteWriter()
      deepStructs(w, 100000)
      // ColumnMetaData.statistics becomes a struct whose field 1 nests on and on (pre-encoded body).
      setField(columnMetaData(meta, 0, 0), 12, T.STRUCT, { fields: [], raw: w.bytes() })
    }),
    raw('schema nested 200000 deep', schemaChainFooter(200000), { code: 'MALFORMED_FOOTER', message: /nests deeper than 256 levels/ }),
    raw('schema 2000 deep with 2000 leaves', schemaFanFooter(2000, 2000), { code: 'MALFORMED_FOOTER', message: /nests deeper than 256 levels/ }),
    raw('schema 250 deep with 20000 leaves', schemaFanFooter(250, 20000), { opens: true }),
    raw('schema with a 1 MB group name over 100 leaves', schemaFanFooter(2, 100, 'g'.repeat(MiB)), { code: 'TOO_LARGE', message: /column paths add up to more than/ }),
    // Footers whose decoded records would dwarf them: 72 bytes per column chunk, 16 per row group.
    raw('a million empty row groups in 4 MB', manyRowGroupsFooter(1_000_000, 0), { code: 'MALFORMED_FOOTER', message: /1000000 column chunks cannot fit in \d+ bytes/ }),
    raw('two million 9-byte column chunks', manyRowGroupsFooter(2_000_000, 8), { code: 'LIMIT_EXCEEDED', message: /decoding the footer: wasm memory pool cannot provide \d+ bytes for the footer's records/ }),
    // A footer that is only a struct opening over and over: the decoder must stop at its depth limit.
    raw('footer of nested struct headers only', concat(Uint8Array.of(0xf0 | T.STRUCT), new Uint8Array(64 * 1024).fill(0x10 | T.STRUCT))),
    raw('footer re-encoded unchanged', encoded, { answers: true }),
    raw('footer with only fields 1-3', encodeStruct(fields(fields(base.meta, 4), 6)), malformed),
  ]
}

/** A FileMetaData whose schema is a chain of `depth` one-child groups ending in one INT32 leaf. */
function schemaChainFooter(depth) {
  const w = new ByteWriter()
  w.fieldHeader(T.I32, 1, 0).zigzag(2)
  w.fieldHeader(T.LIST, 2, 1).listHeader(T.STRUCT, depth + 1)
  for (let i = 0; i < depth; i++) w.fieldHeader(T.BINARY, 4, 0).binary('g').fieldHeader(T.I32, 5, 4).zigzag(1).byte(T.STOP)
  w.fieldHeader(T.I32, 1, 0).zigzag(1).fieldHeader(T.BINARY, 4, 1).binary('x').byte(T.STOP)
  w.fieldHeader(T.I64, 3, 2).zigzag(0)
  w.fieldHeader(T.LIST, 4, 3).listHeader(T.STRUCT, 0)
  return w.byte(T.STOP).bytes()
}

/**
 * One INT32 leaf and `groups` row groups of one column chunk each, the chunk holding only a file_offset
 * padded to `padding` bytes (0: an empty chunk) — valid Thrift, no column metadata.
 */
function manyRowGroupsFooter(groups, padding) {
  const head = new ByteWriter()
  head.fieldHeader(T.I32, 1, 0).zigzag(2)
  head.fieldHeader(T.LIST, 2, 1).listHeader(T.STRUCT, 2)
  head.fieldHeader(T.BINARY, 4, 0).binary('root').fieldHeader(T.I32, 5, 4).zigzag(1).byte(T.STOP)
  head.fieldHeader(T.I32, 1, 0).zigzag(1).fieldHeader(T.BINARY, 4, 1).binary('c').byte(T.STOP)
  head.fieldHeader(T.I64, 3, 2).zigzag(groups)
  head.fieldHeader(T.LIST, 4, 3).listHeader(T.STRUCT, groups)
  const chunk = new ByteWriter()
  if (padding > 0) chunk.fieldHeader(T.I64, 2, 0).raw([...new Uint8Array(padding - 2).fill(0x80), 0x00])
  const group = new ByteWriter().fieldHeader(T.LIST, 1, 0).listHeader(T.STRUCT, 1).raw(chunk.byte(T.STOP).bytes()).byte(T.STOP).bytes()
  const headBytes = head.bytes()
  const out = new Uint8Array(headBytes.length + groups * group.length + 1)
  out.set(headBytes)
  for (let g = 0; g < groups; g++) out.set(group, headBytes.length + g * group.length)
  return out // ends with STOP (the zero the array was created with)
}

/** A schema `depth` groups deep whose innermost group holds `leaves` INT32 leaves. */
function schemaFanFooter(depth, leaves, groupName = 'g') {
  const w = new ByteWriter()
  w.fieldHeader(T.I32, 1, 0).zigzag(2)
  w.fieldHeader(T.LIST, 2, 1).listHeader(T.STRUCT, depth + leaves)
  for (let i = 0; i < depth; i++) w.fieldHeader(T.BINARY, 4, 0).binary(groupName).fieldHeader(T.I32, 5, 4).zigzag(i === depth - 1 ? leaves : 1).byte(T.STOP)
  for (let i = 0; i < leaves; i++) w.fieldHeader(T.I32, 1, 0).zigzag(1).fieldHeader(T.BINARY, 4, 1).binary(`c${i}`).byte(T.STOP)
  w.fieldHeader(T.I64, 3, 2).zigzag(0)
  w.fieldHeader(T.LIST, 4, 3).listHeader(T.STRUCT, 0)
  return w.byte(T.STOP).bytes()
}

/** Every way TARGET's bloom filter can be misplaced, mis-sized or have a bad header. */
function filterCases(base) {
  const f = base.filter(TARGET.rowGroup, TARGET.column)
  const original = base.bytes.subarray(f.offset, f.offset + f.headerLength + f.numBytes)
  const header = decodeStruct(original).struct
  const bitset = original.subarray(f.headerLength)
  const md = (meta) => columnMetaData(meta, TARGET.rowGroup, f.columnIndex)
  const size = base.bytes.length

  // The target's bloom_filter_offset / _length set to these values (null removes the field).
  const placed = (name, { offset, length }, expect) => ({
    name,
    bytes: rebuild(base, (meta) => {
      if (offset !== undefined) setField(md(meta), 14, T.I64, BigInt(offset))
      if (length === null) removeField(md(meta), 15)
      else if (length !== undefined) setField(md(meta), 15, T.I32, length)
    }),
    expect,
  })
  // `blob` appended before the footer and the target pointed at it (with `length`, default blob size).
  const appended = (name, blob, expect, { length = blob.length, padding = 0 } = {}) => ({
    name,
    bytes: rebuild(base, (meta, [at]) => {
      setField(md(meta), 14, T.I64, BigInt(at))
      if (length === null) removeField(md(meta), 15)
      else setField(md(meta), 15, T.I32, length)
    }, [blob, new Uint8Array(padding)]),
    expect,
  })
  // The header replaced and the original bitset right after it: a bitset read for it must be that one.
  const withHeader = (name, edit, expect, options) => {
    const h = cloneStruct(header)
    edit(h)
    return { ...appended(name, concat(encodeStruct(h), bitset), expect, options), bitsetFollowsHeader: true }
  }
  const rawHeader = (name, headerBytes, expect, options) => ({ ...appended(name, concat(headerBytes, bitset), expect, options), bitsetFollowsHeader: true })
  const union = (...members) => ({ fields: members.map((id) => ({ id, type: T.STRUCT, value: struct() })) })
  const unknown = (reason) => ({ unknown: reason })
  const answers = { answers: true }
  const outside = unknown(/inconsistent-filter: bloom_filter_offset -?\d+ is outside the data region/)
  const random = rng(0x5eed)

  const deepHeader = new ByteWriter().fieldHeader(T.STRUCT, 7, 0)
  for (let i = 0; i < 50000; i++) deepHeader.byte(0x10 | T.STRUCT)
  for (let i = 0; i <= 50000; i++) deepHeader.byte(T.STOP)

  return [
    // Where the filter is
    // 0 and negative offsets mean "no filter" (apache/iceberg#5172; js/indexes/writer-rules.js)
    placed('bloom offset -5', { offset: -5 }, unknown(/no-index: this row group has no bloom filter/)),
    placed('bloom offset -2^63', { offset: -(2n ** 63n) }, unknown(/no-index: this row group has no bloom filter/)),
    placed('bloom offset 0', { offset: 0 }, unknown(/no-index: this row group has no bloom filter/)),
    placed('bloom offset 3 (inside the magic)', { offset: 3 }, outside),
    placed('bloom offset at the footer', { offset: base.metadataOffset }, outside),
    placed('bloom offset inside the footer', { offset: base.metadataOffset + 10 }, outside),
    placed('bloom offset at the file end', { offset: size }, outside),
    placed('bloom offset past the end', { offset: size + 1000 }, outside),
    placed('bloom offset 2^62', { offset: 2n ** 62n }, outside),
    placed('bloom offset 2^63-1', { offset: 2n ** 63n - 1n }, outside),
    placed('bloom offset into a data page', { offset: 4 }, unknown(/inconsistent-filter: .*inside a column chunk's pages/)),
    placed('bloom offset one byte late', { offset: f.offset + 1 }, unknown(/malformed-filter|unsupported-filter|inconsistent-filter/)),
    placed('bloom offset so the filter overlaps the footer', { offset: base.metadataOffset - 100 }, unknown(/overlaps the footer/)),
    // How long it is
    placed('bloom length 0', { length: 0 }, unknown(/inconsistent-filter: bloom_filter_length 0 cannot hold a filter/)),
    placed('bloom length 1', { length: 1 }, unknown(/malformed-filter: .*truncated/)),
    placed('bloom length inside the header', { length: 10 }, unknown(/malformed-filter: .*truncated/)),
    placed('bloom length of the header alone', { length: f.headerLength }, unknown(/inconsistent-filter: .*bloom_filter_length 16 ≠ header 16 \+ numBytes 2048/)),
    placed('bloom length one short', { length: f.headerLength + f.numBytes - 1 }, unknown(/inconsistent-filter: .*bloom_filter_length \d+ ≠ header/)),
    placed('bloom length 2^31-1', { length: 2 ** 31 - 1 }, unknown(/overlaps the footer/)),
    // A length that disagrees with the filter in either direction makes it unusable: neither description is trusted over the other.
    placed('bloom length -5', { length: -5 }, unknown(/inconsistent-filter: bloom_filter_length -5 cannot hold a filter/)),
    placed('bloom length -2^31', { length: -(2 ** 31) }, unknown(/inconsistent-filter: bloom_filter_length -\d+ cannot hold a filter/)),
    placed('bloom length absent', { length: null }, answers),
    appended('bloom length one long', original, unknown(/inconsistent-filter: .*≠ header/), { length: original.length + 1, padding: 1 }),
    appended('bloom length 100 long', original, unknown(/inconsistent-filter: .*≠ header/), { length: original.length + 100, padding: 100 }),
    appended('bloom length 5000 long (standard layout guess wrong)', original, unknown(/inconsistent-filter: .*≠ header/), { length: original.length + 5000, padding: 5000 }),
    appended('bloom length 2048 long (looks like a 4096-byte filter)', original, unknown(/inconsistent-filter: .*≠ header/), { length: original.length + 2048, padding: 2048 }),
    // Without bloom_filter_length nothing disagrees: padding after the filter is fine.
    appended('no bloom length, 1 byte of padding after', original, answers, { length: null, padding: 1 }),
    appended('no bloom length, 100 bytes of padding after', original, answers, { length: null, padding: 100 }),
    appended('no bloom length, 5000 bytes of padding after', original, answers, { length: null, padding: 5000 }),
    appended('no bloom length, 2048 bytes of padding after', original, answers, { length: null, padding: 2048 }),
    appended('exact bloom length, 100 bytes of padding after', original, answers, { padding: 100 }),
    appended('bloom length long, runs into the footer', original, unknown(/overlaps the footer/), { length: original.length + 10 }),
    // Truncated filters (the next structure follows at once)
    appended('filter cut inside the header', original.slice(0, 9), unknown(/truncated/)),
    appended('filter cut inside the header, no length', original.slice(0, 9), unknown(/truncated/), { length: null }),
    appended('filter cut inside the bitset', original.slice(0, f.headerLength + 1000), unknown(/inconsistent-filter: .*≠ header/)),
    appended('filter cut inside the bitset, no length', original.slice(0, f.headerLength + 1000), unknown(/runs into the next structure/), { length: null }),
    appended('filter moved, no length', original, answers, { length: null }),
    // numBytes
    withHeader('numBytes 0', (h) => setField(h, 1, T.I32, 0), unknown(/numBytes is not a positive multiple of 32/)),
    withHeader('numBytes 33', (h) => setField(h, 1, T.I32, 33), unknown(/numBytes is not a positive multiple of 32/)),
    withHeader('numBytes 2047', (h) => setField(h, 1, T.I32, 2047), unknown(/numBytes is not a positive multiple of 32/)),
    withHeader('numBytes -2048', (h) => setField(h, 1, T.I32, -2048), unknown(/numBytes is not a positive multiple of 32/)),
    withHeader('numBytes 128 MiB + 32', (h) => setField(h, 1, T.I32, 128 * MiB + 32), unknown(/over the 128 MiB ceiling/)),
    withHeader('numBytes 2^31 - 32', (h) => setField(h, 1, T.I32, 2 ** 31 - 32), unknown(/over the 128 MiB ceiling/)),
    withHeader('numBytes 128 MiB (more than the file)', (h) => setField(h, 1, T.I32, 128 * MiB), unknown(/inconsistent-filter: .*≠ header/)),
    withHeader('numBytes 128 MiB, no length', (h) => setField(h, 1, T.I32, 128 * MiB), unknown(/runs into the next structure/), { length: null }),
    withHeader('numBytes 4096 (more than the bitset), no length', (h) => setField(h, 1, T.I32, 4096), unknown(/runs into the next structure/), { length: null }),
    withHeader('numBytes as i64', (h) => setField(h, 1, T.I64, 2048n), unknown(/wrong Thrift type/)),
    withHeader('numBytes missing', (h) => removeField(h, 1), unknown(/no numBytes/)),
    withHeader('numBytes i32 overflow', (h) => setField(h, 1, T.I64, 2n ** 40n), unknown(/wrong Thrift type/)),
    // The three unions
    withHeader('algorithm union empty', (h) => setField(h, 2, T.STRUCT, union()), unknown(/unsupported-filter: .*empty algorithm\/hash\/compression union/)),
    withHeader('algorithm unknown member', (h) => setField(h, 2, T.STRUCT, union(2)), unknown(/unsupported-filter: .*does not implement/)),
    withHeader('hash union empty', (h) => setField(h, 3, T.STRUCT, union()), unknown(/unsupported-filter: .*empty/)),
    withHeader('hash unknown member', (h) => setField(h, 3, T.STRUCT, union(9)), unknown(/unsupported-filter: .*does not implement/)),
    withHeader('compression union empty', (h) => setField(h, 4, T.STRUCT, union()), unknown(/unsupported-filter: .*empty/)),
    withHeader('compression unknown member (a codec)', (h) => setField(h, 4, T.STRUCT, union(2)), unknown(/unsupported-filter: .*does not implement/)),
    withHeader('union member of a struct plus an unknown one', (h) => setField(h, 2, T.STRUCT, union(1, 5)), answers),
    withHeader('algorithm missing', (h) => removeField(h, 2), unknown(/no algorithm/)),
    withHeader('hash missing', (h) => removeField(h, 3), unknown(/no hash/)),
    withHeader('compression missing', (h) => removeField(h, 4), unknown(/no compression/)),
    withHeader('algorithm of the wrong type', (h) => setField(h, 2, T.I32, 1), unknown(/wrong Thrift type/)),
    // Odd but valid headers
    withHeader('header with unknown fields', (h) => setField(setField(h, 9, T.BINARY, new Uint8Array(40).fill(7)), 12, T.LIST, { elemType: T.I32, items: [1, 2, 3] }), answers),
    withHeader('header with unknown fields, no length', (h) => setField(h, 9, T.BINARY, new Uint8Array(100).fill(7)), answers, { length: null }),
    withHeader('header with a 5000-byte unknown field', (h) => setField(h, 9, T.BINARY, new Uint8Array(5000).fill(7)), answers),
    withHeader('header with a 5000-byte unknown field, no length', (h) => setField(h, 9, T.BINARY, new Uint8Array(5000).fill(7)), answers, { length: null }),
    withHeader('header with a 60000-byte unknown field', (h) => setField(h, 9, T.BINARY, new Uint8Array(60000).fill(7)), answers),
    withHeader('header with a 70000-byte unknown field', (h) => setField(h, 9, T.BINARY, new Uint8Array(70000).fill(7)), unknown(/malformed-filter: .*the header is longer than 65536 bytes/)),
    rawHeader('header fields in reverse order', reversedHeader(header), answers),
    // Thrift bombs and garbage in the header
    rawHeader('header nested 50000 deep', deepHeader.bytes(), unknown(/not valid Thrift compact encoding|truncated/)),
    rawHeader('header with a 2^62-byte binary', new ByteWriter().fieldHeader(T.BINARY, 7, 0).varint(2n ** 62n).bytes(), unknown(/truncated/)),
    rawHeader('header with a list of 2^31 i32', new ByteWriter().fieldHeader(T.LIST, 7, 0).listHeader(T.I32, 2 ** 31).bytes(), unknown(/truncated|not valid Thrift compact encoding/)),
    rawHeader('header with an 11-byte varint', new ByteWriter().fieldHeader(T.I32, 1, 0).raw(new Uint8Array(10).fill(0xff)).byte(1).bytes(), unknown(/not valid Thrift compact encoding/)),
    rawHeader('header of unknown wire type', Uint8Array.of(0x1d), unknown(/not valid Thrift compact encoding/)),
    appended('header of garbage', concat(Uint8Array.from({ length: 16 }, () => Math.floor(random() * 256)), bitset), unknown(/malformed-filter|unsupported-filter/)),
    appended('filter of zeros', new Uint8Array(original.length), unknown(/no numBytes/)),
    appended('filter of 0xff', new Uint8Array(original.length).fill(0xff), unknown(/malformed-filter/)),
    appended('legacy (pre-Thrift) filter', legacyFilter(bitset), unknown(/pre-release|no numBytes/)),
    // Chunk metadata that rules the filter out
    placed('chunk metadata encrypted', {}, unknown(/encrypted-column/)),
    placed('chunk in another file', {}, unknown(/external-file/)),
    placed('chunk with crypto metadata', {}, unknown(/encrypted-column/)),
    placed('chunk without metadata', {}, unknown(/no-column-metadata/)),
  ].map((c) => chunkEdits(c, base, f))
}

// The last four cases above edit the ColumnChunk rather than the filter.
function chunkEdits(c, base, f) {
  const chunk = (meta) => columnChunk(meta, TARGET.rowGroup, f.columnIndex)
  const edits = {
    'chunk metadata encrypted': (meta) => setField(chunk(meta), 9, T.BINARY, new Uint8Array(32).fill(9)),
    'chunk in another file': (meta) => setField(chunk(meta), 1, T.BINARY, new TextEncoder().encode('other.parquet')),
    'chunk with crypto metadata': (meta) => setField(chunk(meta), 8, T.STRUCT, struct([1, T.STRUCT, struct()])),
    'chunk without metadata': (meta) => removeField(chunk(meta), 3),
  }
  return edits[c.name] ? { ...c, bytes: rebuild(base, edits[c.name]) } : c
}

function reversedHeader(header) {
  const w = new ByteWriter()
  let last = 0
  for (const { id, type, value } of [...header.fields].reverse()) {
    w.fieldHeader(type, id, last)
    w.value(type, value)
    last = id
  }
  return w.byte(T.STOP).bytes()
}

/** The pre-release layout: numBytes, algorithm, hash as little-endian int32, then the bitset. */
function legacyFilter(bitset) {
  const head = new Uint8Array(12)
  new DataView(head.buffer).setInt32(0, bitset.length, true)
  return concat(head, bitset)
}
