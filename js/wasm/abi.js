// The wasm ABI on JS's side (src/abi.h declares it in C++): the records JS reads or writes in wasm memory
// and the enums it compares codes with, name for name. init() binds them to the module's description;
// a name added, removed, renamed or moved on one side only, or a field JS cannot read, fails it (WASM).
import { ErrorCode, ParquetBloomError } from '../errors.js'

const VERSION = 2 // of src/abi.h Description
const TYPES = [, 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'f64'] // src/abi.h FieldType; Core has i16 i32 u32 f64 views

/** @param {string} what */
const mismatch = (what) => new ParquetBloomError(ErrorCode.WASM, `the wasm module does not match this JS: ${what}`)
/**
 * src/abi.h NamesHash: 32-bit FNV-1a, which the module sends instead of names.
 * @param {string} text
 */
const namesHash = (text) => {
  let h = 2166136261
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619)
  return h >>> 0
}
/**
 * Every record and enum declared below, each found in the description by the hash of its name.
 * @type {Array<AbiRecord | AbiEnum>}
 */
const ALL = []

/**
 * A record as the module describes it: its size, and each field's byte offset, size and type (TYPES).
 * @typedef {{ isRecord: true, nameHash: number, hash: number, size: number, count: number,
 *   fields: Array<[number, number, string | undefined]> }} DescribedRecord
 */
/**
 * An enum as the module describes it: its members' values in declaration order.
 * @typedef {{ isRecord: false, nameHash: number, hash: number, count: number, values: number[] }} DescribedEnum
 */

/** A record or enum: its C++ name and its member names in declaration order, all of them. */
class AbiType {
  /**
   * @param {string} name
   * @param {string} names space-separated
   */
  constructor(name, names) {
    this.name = name
    this.names = names.split(' ')
    /** @type {Array<() => void>} */
    this.bound = []
    this.nameHash = namesHash(name)
    // An AbiType is only ever one of the two.
    ALL.push(/** @type {AbiRecord | AbiEnum} */ (/** @type {unknown} */ (this)))
  }

  /** @param {DescribedRecord | DescribedEnum} described */
  check(described) {
    if (described.hash !== namesHash(`${this.name}\0${this.names.join('\0')}\0`)) {
      throw mismatch(`the ${described.count} members of ${this.name} in src/ differ ` +
        `from the ${this.names.length} js/wasm/abi.js lists: ${this.names}`)
    }
  }
}

/** A struct in wasm memory; `names` are all its fields. */
class AbiRecord extends AbiType {
  /** @param {DescribedRecord} described */
  bind(described) {
    this.check(described)
    /** @type {number} bytes per record */
    this.bytes = described.size
    /** @type {Array<[string, string, number]>} each field's name, type and word index in its type's view */
    this.layout = described.fields.map(([offset, size, type], i) => {
      if (offset % size || typeof type !== 'string' || !/i16|32|f64/.test(type)) {
        throw mismatch(`${this.name}.${this.names[i]} is ${type} at ${offset}: JS cannot read it`)
      }
      return [this.names[i], type, offset / size]
    })
    // One reader per field, each on its own heap view, so read() stays monomorphic per field.
    const keys = this.names.map((n) => n.replace(/_(.)/g, (_, c) => c.toUpperCase()))
    /** @typedef {(core: import('./core.js').Core, at: number) => number} FieldReader */
    const readers = this.layout.map(([, type, i]) => (/** @type {Record<string, FieldReader>} */ ({
      i16: (core, at) => core.i16[(at >> 1) + i],
      i32: (core, at) => core.i32[(at >> 2) + i],
      u32: (core, at) => core.u32[(at >> 2) + i],
      f64: (core, at) => core.f64[(at >> 3) + i],
    }))[type])
    // Copies of one object with every key: each record read then has its shape at once, rather than
    // growing into it a key at a time.
    /** @type {Record<string, number>} */
    const shape = {}
    for (const key of keys) shape[key] = 0
    /**
     * The record at `at`, keys in camelCase (num_bytes → numBytes).
     * @type {(core: import('./core.js').Core, at: number) => Record<string, number>}
     */
    this.read = (core, at) => {
      const out = { ...shape }
      for (let k = 0; k < keys.length; k++) out[keys[k]] = readers[k](core, at)
      return out
    }
    for (const fn of this.bound) fn()
  }

  /**
   * Word indices, UPPER_SNAKE (Chunk.BLOOM_OFFSET), filled at init(), for a record JS copies or writes
   * as one array of `type` words; every field must be one (`orU32`: or u32, where JS writes via i32).
   */
  /**
   * @param {string} type
   * @returns {Record<string, number>}
   */
  wordIndex(type, orU32 = false) {
    /** @type {Record<string, number>} */
    const index = {}
    this.bound.push(() => {
      for (const [name, t, i] of this.layout) {
        if (t !== type && !(orU32 && t === 'u32')) throw mismatch(`${this.name}.${name} is ${t}, not a ${type} word`)
        index[name.toUpperCase()] = i
      }
      Object.freeze(index)
    })
    return index
  }

  /**
   * Word indices of the fields of one type only, for a record of mixed types that JS copies whole and
   * reads through one view per type (ChunkIndexRecord: its doubles by f64 word, its int32s by i32 word).
   */
  /**
   * @param {string} type
   * @returns {Record<string, number>}
   */
  wordIndexOfType(type) {
    /** @type {Record<string, number>} */
    const index = {}
    this.bound.push(() => {
      for (const [name, t, i] of this.layout) if (t === type) index[name.toUpperCase()] = i
      Object.freeze(index)
    })
    return index
  }

  /**
   * Words of `bytes` bytes per record.
   * @param {number} bytes
   */
  words(bytes) {
    return this.bytes / bytes
  }
}

/** An enum; `toJs` makes the name JS uses from the C++ one (kInvalidArgument → INVALID_ARGUMENT). */
class AbiEnum extends AbiType {
  /**
   * @param {string} name
   * @param {string} names space-separated
   * @param {(cxx: string) => string} [toJs]
   */
  constructor(name, names, toJs = upperSnake) {
    super(name, names)
    this.toJs = toJs
    /** @type {Record<string, number>} each member's value by its JS name (known once init() bound the ABI) */
    this.values = {}
    /** @type {Map<number, string>} */
    this.byValue = new Map()
  }

  /** @param {DescribedEnum} described */
  bind(described) {
    this.check(described)
    this.names.forEach((n, i) => this.byValue.set(this.values[this.toJs(n)] = described.values[i], this.toJs(n)))
    Object.freeze(this.values)
  }
}

const words = (/** @type {string} */ cxx) => cxx.slice(1).split(/(?=[A-Z])/) // kFixedLenByteArray → Fixed Len Byte Array
/** @param {string} cxx */
function upperSnake(cxx) {
  return words(cxx).join('_').toUpperCase()
}

export const BatchDescriptor = new AbiRecord('BatchDescriptor',
  'type type_length count values values_length offsets values_bit_offset validity validity_bit_offset offsets_base')
export const BloomHeader = new AbiRecord('BloomHeader', 'num_bytes algorithm hash compression header_length problem')
export const BitsetHealth = new AbiRecord('BitsetHealth',
  'bits_set fill_ratio estimated_ndv estimated_fpp saturated_words empty_blocks all_blocks_identical')
export const FileSummary = new AbiRecord('FileSummary', 'version schema_count row_group_count chunk_count num_rows ' +
  'created_by_offset created_by_length has_encryption_algorithm error_offset column_order_count reserved')
export const SchemaRecord = new AbiRecord('SchemaRecord', 'name_offset name_length type type_length repetition ' +
  'num_children converted_type scale precision field_id logical_kind logical_a logical_b reserved')
export const RowGroupRecord = new AbiRecord('RowGroupRecord', 'num_rows num_columns')
export const ChunkIndexRecord = new AbiRecord('ChunkIndexRecord', 'num_values null_count distinct_count min_value_offset ' +
  'min_value_length max_value_offset max_value_length min_offset min_length max_offset max_length flags encodings codec ' +
  'column_index_length offset_index_length reserved')
export const ChunkRecord = new AbiRecord('ChunkRecord', 'bloom_offset bloom_length data_page_offset dictionary_page_offset ' +
  'column_index_offset offset_index_offset total_compressed_size physical_type flags')
export const ChunkSpan = new AbiRecord('ChunkSpan', 'offset length')

export const Status = new AbiEnum('Status', 'kOk kMalformed kUnsupported kInvalidArgument kLimitExceeded')
// kMissingNumBytes → missing-numBytes: the names bloom-header.js and cli/inspect.js key their texts by.
export const HeaderProblem = new AbiEnum('HeaderProblem', 'kNone kTruncated kBadEncoding kMissingNumBytes kMissingAlgorithm ' +
  'kMissingHash kMissingCompression kBadNumBytes kNumBytesTooLarge kEmptyUnion kUnknownUnion kLegacyFormat kWrongFieldType',
(cxx) => words(cxx).join('-').toLowerCase().replace('num-bytes', 'numBytes'))
export const PhysicalType = new AbiEnum('PhysicalType', 'kBoolean kInt32 kInt64 kInt96 kFloat kDouble kByteArray kFixedLenByteArray')
export const ChunkFlag = new AbiEnum('ChunkFlag', 'kChunkHasMetaData kChunkEncryptedMetaData kChunkHasCryptoMetaData kChunkExternalFile',
  (cxx) => upperSnake(cxx.replace('Chunk', ''))) // → HAS_META_DATA
export const IndexFlag = new AbiEnum('IndexFlag', 'kIndexHasStatistics kIndexMinValueExact kIndexMaxValueExact kIndexHasEncodingStats ' +
  'kIndexDataPagesDictionary kIndexHasEncodings kIndexForeignBloomField kIndexForeignStatisticsField kIndexForeignDictionaryField',
  (cxx) => upperSnake(cxx.replace('Index', ''))) // → HAS_STATISTICS

export const SbbfLimit = new AbiEnum('SbbfLimit', 'kBytesPerBlock kWordsPerBlock kMinNumBytes kMaxNumBytes') // → BYTES_PER_BLOCK
// The footer decoder's passes (src/file_metadata.h DecodeFooterPass): FOOTER_COUNTS, FOOTER_SUMMARY, FOOTER_WHOLE, …
export const FooterPass = new AbiEnum('FooterPass', 'kFooterCounts kFooterSummary kFooterWhole kFooterHead kFooterRowGroups kFooterTail')

/** Native status codes (src/status.h), as errors.js re-exports them. */
export const NativeStatus = Status.values

/** @type {string | undefined} the description bound, as JSON */
let bound
/** @type {Array<() => void>} */
const onBound = []

/**
 * Runs fn once the ABI is bound (at once if it is), for constants derived from it.
 * @param {() => void} fn
 */
export function whenBound(fn) {
  if (bound) fn()
  else onBound.push(fn)
}

/**
 * What the ABI description is read from: the module's heap and the native function that gives its address.
 * @typedef {{ HEAPU8: Uint8Array<ArrayBuffer>, abiDescription?: () => number }} DescribedModule
 */

/**
 * Binds everything above to the module's description; a second module must describe the same ABI.
 * @param {DescribedModule} module
 */
export function bindAbi(module) {
  const described = readDescription(module)
  const text = JSON.stringify(described)
  if (bound) {
    if (text !== bound) throw mismatch('a second module with another ABI was loaded')
    return
  }
  for (const type of ALL) {
    const d = described.find((t) => t.nameHash === type.nameHash && t.isRecord === type instanceof AbiRecord)
    if (!d) throw mismatch(`it does not describe ${type.name}, which js/wasm/abi.js lists`)
    // d.isRecord matches type's kind (found so), so exactly one branch binds it.
    if (type instanceof AbiRecord && d.isRecord) type.bind(d)
    else if (type instanceof AbiEnum && d.isRecord === false) type.bind(d)
  }
  if (described.length !== ALL.length) throw mismatch(`it describes ${described.length} records and enums, js/wasm/abi.js ${ALL.length}`)
  bound = text
  for (const fn of onBound.splice(0)) fn()
}

/**
 * src/abi.h Description, from its 32-bit words: the records, then the enums.
 * @param {DescribedModule} module
 * @returns {Array<DescribedRecord | DescribedEnum>}
 */
function readDescription(module) {
  if (!module.abiDescription) throw mismatch('it describes no ABI')
  const at = module.abiDescription()
  const word = (/** @type {number} */ address) => new Uint32Array(module.HEAPU8.buffer, address, 1)[0]
  /** @type {(count: number, address: number) => number[]} */
  const array = (count, address) => Array.from({ length: count }, (_, i) => word(address + 4 * i))
  if (word(at) !== VERSION) throw mismatch(`its ABI description is version ${word(at)}, not ${VERSION}`)
  return [
    ...array(word(at + 4), word(at + 8)).map((r) => (/** @type {DescribedRecord} */ ({
      isRecord: true, nameHash: word(r), hash: word(r + 4), size: word(r + 8), count: word(r + 12),
      fields: array(word(r + 12), word(r + 16)).map((p) => [p >>> 16, (p >> 8) & 255, TYPES[p & 255]]),
    }))),
    ...array(word(at + 12), word(at + 16)).map((e) => (/** @type {DescribedEnum} */ ({
      isRecord: false, nameHash: word(e), hash: word(e + 4), count: word(e + 8), values: array(word(e + 8), word(e + 12)).map((v) => v | 0),
    }))),
  ]
}
