// Command-line parsing for parquet-bloom (node:util parseArgs) and the help texts. Every problem is a
// UsageError whose message fits on one line.
import { parseArgs } from 'node:util'

import { WARNING_CODES } from './inspect-command.js'

export class UsageError extends Error {
  /**
   * @param {string} message
   * @param {string} [command] the command whose help to point to
   */
  constructor(message, command) {
    super(message)
    this.name = 'UsageError'
    this.command = command
  }
}

/** @typedef {import('node:util').ParseArgsOptionsConfig} OptionsSpec */

/** @type {OptionsSpec} */
const COMMON = {
  'json': { type: 'boolean' },
  'concurrency': { type: 'string' },
  'debug': { type: 'boolean' },
  'cache-dir': { type: 'string' },
  'footer-key': { type: 'string' },
  'column-key': { type: 'string', multiple: true },
  'aad-prefix': { type: 'string' },
  'key-file': { type: 'string' },
  'endpoint': { type: 'string' },
  'region': { type: 'string' },
  'table': { type: 'string' },
  'snapshot': { type: 'string' },
  'table-version': { type: 'string' },
  'help': { type: 'boolean', short: 'h' },
}

/** @type {OptionsSpec} */
const INDEX_COMMON = {
  'output': { type: 'string', short: 'o' },
  'column': { type: 'string', short: 'c', multiple: true },
  'fpp': { type: 'string' },
  'ndv': { type: 'string' },
  'json': { type: 'boolean' },
  'debug': { type: 'boolean' },
  'help': { type: 'boolean', short: 'h' },
}

/** @type {Record<string, OptionsSpec>} */
const COMMANDS = {
  inspect: { ...COMMON, 'advise': { type: 'boolean' }, 'fpp': { type: 'string' } },
  probe: {
    ...COMMON,
    'column': { type: 'string', short: 'c' },
    'value': { type: 'string', short: 'v', multiple: true },
    'values-file': { type: 'string', multiple: true },
    'hex': { type: 'boolean' },
    'mode': { type: 'string' },
    'no-statistics': { type: 'boolean' },
    'dictionary': { type: 'string' },
    'confirm': { type: 'boolean' },
    'max-confirm-bytes': { type: 'string' },
    'max-rows': { type: 'string' },
    'columns': { type: 'string' },
    'where': { type: 'string', multiple: true },
    'index': { type: 'string' },
    'explain': { type: 'boolean' },
  },
  'index add': { ...INDEX_COMMON, 'replace': { type: 'boolean' }, 'page-index': { type: 'boolean' },
    'footer-key': { type: 'string' }, 'column-key': { type: 'string', multiple: true }, 'aad-prefix': { type: 'string' },
      'key-file': { type: 'string' } },
  'index build': { ...INDEX_COMMON, 'update': { type: 'boolean' }, 'format': { type: 'string' }, 'shard': { type: 'string' },
    'concurrency': { type: 'string' },
    'table': { type: 'string' } },
  'index merge': { 'output': { type: 'string', short: 'o' }, 'format': { type: 'string' }, 'json': { type: 'boolean' },
    'debug': { type: 'boolean' }, 'help': { type: 'boolean', short: 'h' } },
}

export const DEFAULT_FILE_CONCURRENCY = 4
const MODES = ['auto', 'filter', 'block']

export const MAIN_HELP = `parquet-bloom — inspect and probe the bloom filters of Parquet files (local paths or http(s) URLs)

Usage:
  parquet-bloom inspect <file-or-url>... [--json]
  parquet-bloom probe <file-or-url>... --column <path> --value <v> [--value <v>]... [--json]
  parquet-bloom index add <file> -o <out> --column <path> [--column <path>]... [--fpp 0.01] [--ndv auto|N] [--page-index] [--replace]
  parquet-bloom index build <files-or-dir>... -o <index> --column <path>... [--update] [--format 2|1] [--shard i/n]
  parquet-bloom index merge <segments>... -o <index>
  parquet-bloom <command> --help
  parquet-bloom --version

Exit status: 0 on success; 2 on bad usage or when any file cannot be read (the others are still processed).
`

/** @type {Record<string, string>} */
export const HELP = {
  inspect: `Usage: parquet-bloom inspect <file-or-url>... [options]
       parquet-bloom inspect <dir|glob|s3://bucket/prefix/> [--json]

A dataset (one directory, glob or s3:// prefix) is reported per column instead: the share of its files
and row groups with statistics, a page index, dictionary-only chunks and bloom filters.

For every row group and column chunk: whether it has a bloom filter, its offset, bloom_filter_length,
header bytes and numBytes, and its health: fill ratio (bits set / bits), the number of distinct values
the fill suggests, the false-positive rate that fill implies, and warnings.

Options:
  --json               one JSON document: { "files": [ { file, size, createdBy, numRows, rowGroups } ] }
  --advise             instead: per column, how much each index would prune for probes of the column's own
                       values (a sample of row groups decoded; statistics as the file has them) and what
                       bloom filters would cost (parquet-bloom index add writes them)
  --fpp <p>            with --advise: the filters' false-positive rate (default 0.01)
  --table iceberg|delta|auto  the location is a table's root: its snapshots or version, files, deletes, and
                       per column what its metadata can prune (files with bounds, counts, partition fields)
  --snapshot <id>, --table-version <n>  with --table: the snapshot (Iceberg) or version (Delta) to read
  --concurrency <n>    files read at once (default ${DEFAULT_FILE_CONCURRENCY})
  --cache-dir <dir>    keep the footers of URLs in <dir> (validated by ETag/Last-Modified) and reuse them
  --footer-key <key>   key of an encrypted file's footer (16/24/32 characters, or hex:<bytes>);
                       also PARQUET_BLOOM_FOOTER_KEY
  --column-key <p=key> key of an encrypted column (repeatable); also PARQUET_BLOOM_COLUMN_KEYS=p=key,p=key
  --aad-prefix <text>  AAD prefix of a file that does not store it; also PARQUET_BLOOM_AAD_PREFIX
  --key-file <file>    JSON { "footerKey", "columnKeys": { path: key }, "aadPrefix" }; keys never appear in the output
  --debug              show stack traces of errors
  -h, --help           this help

Warnings (JSON: { "code", "message" } in bloom.warnings):
${warningLegend()}
`,
  probe: `Usage: parquet-bloom probe <file-or-url>... --column <path> --value <v> [--value <v>]... [options]
       parquet-bloom probe <dir|glob|s3://bucket/prefix/> --column <path> --value <v>... [options]

Says, per file and row group, whether each value is definitely absent or may be present. Values are
text converted by the column's type as the JS API converts them ('42', '2024-01-02', '12.50', ...).
One directory, glob ('data/**/*.parquet') or s3:// prefix is probed as a dataset (openDataset): Hive
partitions (day=2026-01-07/…) answer without reads, one line per file, a summary per partition value.

Options:
  -c, --column <path>      the column: dotted path ('a.b.c') or leaf name when unique
  -v, --value <v>          a value (repeatable); a value starting with '-' may also be written --value=-5
  --values-file <file>     one value per line, blank lines skipped ('-' reads standard input); repeatable
  --hex                    values are hex bytes (for binary and fixed-length columns), e.g. 0a0b or 0x0a:0b
  --mode auto|filter|block  read whole filters, only the 32-byte blocks the values map to, or choose (default auto)
  --no-statistics          do not use row-group min/max statistics (to check what the bloom filters alone say)
  --dictionary auto|true|false  read dictionary-only chunks' dictionaries (exact answers): when cheaper
                           than the bloom filter or small (auto, the default), always, or never
  --confirm                look values still maybe up in the data pages: present with the rows holding
                           them (file-level, 0-based), or absent, exactly
  --max-confirm-bytes <n>  data page bytes --confirm may read per file (default 16 MiB)
  --max-rows <n>           rows listed per value and file with --confirm (default 1000)
  --columns <a,b>          with --confirm: also print those top-level columns' values at the rows found
  --endpoint <url>         an s3:// dataset on an S3-compatible service (R2, MinIO, …); also AWS_ENDPOINT_URL
  --region <region>        its region; also AWS_REGION. Credentials: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
                           AWS_SESSION_TOKEN (never on the command line); without them, unsigned requests
  --table iceberg|delta|auto  the one location is an Iceberg or Delta table's root (folder or URL): its
                           metadata lists the live files and rules files out before any read
  --snapshot <id>          with --table: the Iceberg snapshot to read (default: the current one)
  --table-version <n>      with --table: the Delta version to read (default: the latest)
  --where <key=value>      a dataset: only files whose partition key holds value (repeat a key for IN)
  --index <file>           a sidecar index (parquet-bloom index build): its filters and bounds answer what
                           the files' own indexes leave open, for files it describes as they are; a line on
                           stderr says how many files it did not describe, and why
  --explain                print the read plan after the answers: round by round, which ranges of which files
                           were read and what for (footer, bloom, dictionary, page-index, manifest, …), their
                           bytes and times; with --json, a "plan" field (several named files: one per file)
  --json                   one JSON document: { "files": [ { file, column, physicalType, logicalType, rowGroups, stats } ] }
  --concurrency <n>        files probed at once (default: all, through one window of requests, as a dataset)
  --cache-dir <dir>        keep the footers of URLs in <dir> (validated by ETag/Last-Modified) and reuse them
  --footer-key <key>       key of an encrypted file's footer (16/24/32 characters, or hex:<bytes>); also PARQUET_BLOOM_FOOTER_KEY
  --column-key <path=key>  key of an encrypted column (repeatable); also PARQUET_BLOOM_COLUMN_KEYS=path=key,path=key
  --aad-prefix <text>      AAD prefix of a file that does not store it; also PARQUET_BLOOM_AAD_PREFIX
  --key-file <file>        JSON { "footerKey", "columnKeys": { path: key }, "aadPrefix" }; keys never appear in the output
  --debug                  show stack traces of errors
  -h, --help               this help

Verdicts: absent (an index rules the value out), maybe (it may be there), unknown (no usable index;
the reason says why). Each row group line names the index that decided (stats, bloom, value); the
summary says how many row groups each index ruled out. A value never reported absent is never
skipped wrongly. Reason codes: see docs/verdicts.md ("Verdicts, sources and reasons").
`,
}

HELP['index add'] = `Usage: parquet-bloom index add <file-or-url> -o <out> --column <path> [--column <path>]... [options]

Writes a copy of the file with bloom filters for the columns given. The pages are copied byte for byte;
the filters follow them, then the old footer with only the new filters' locations added, and a
key-value entry "parquet-bloom.indexes" saying what was added. An encrypted file needs its keys: the
filters of encrypted columns are then written encrypted with the column's key and the footer encrypted
or signed again with the footer key (which is required); without keys it is refused.

Options:
  -o, --output <file>  where the copy goes (written beside it under a temporary name, then renamed)
  -c, --column <path>  a column to give filters (repeatable), of any physical type
  --fpp <p>            target false-positive rate of each filter (default 0.01)
  --ndv auto|<n>       distinct values each filter is sized for: counted per chunk (auto, the default) or <n>
  --replace            also build filters for chunks that have a usable one (kept by default)
  --page-index         also write an OffsetIndex for chunks without one, and a ColumnIndex where the file
                       declares TYPE_ORDER for the column (page bounds are defined only there)
  --footer-key <key>, --column-key <p=key>, --aad-prefix <text>, --key-file <file>
                       the keys of an encrypted file, as for probe (also the PARQUET_BLOOM_* variables)
  --json               print the result as JSON: { file, output, bytesWritten, added, skipped }
  --debug              show stack traces of errors
  -h, --help           this help
`
HELP['index build'] = `Usage: parquet-bloom index build <file-or-dir>... -o <index-file> --column <path> [--column <path>]... [options]

Writes one sidecar index (a Puffin file, docs/sidecar-index.md) for files that cannot be rewritten: per
file, row group and column a bloom filter and the values' min/max. Probes of any number of files then
cost two reads of the index: its directory (one tail read) and the 32-byte blocks the values map to.
A directory stands for the .parquet files under it. Paths are recorded relative to the index's directory.
So that a probe can tell a changed file, local files are recorded with their modification times, URLs with
their ETags (else Last-Modified): an index built from local paths matches those paths, not the same files
served over HTTP — build it from the URLs for that. The output says which validators it recorded.

Options:
  -o, --output <file>  the index file
  -c, --column <path>  a column to index (repeatable)
  --fpp <p>            target false-positive rate of each filter (default 0.01)
  --ndv auto|<n>       distinct values each filter is sized for (default: counted per chunk)
  --update             keep the entries of <index-file> whose files have not changed (size, modification
                       time), index new files, drop gone ones
  --shard <i/n>        index only shard i of n (0 <= i < n; by a hash of each recorded path, the same on
                       every machine) into a segment; parquet-bloom index merge joins the n segments into
                       the index a build of all the files writes, byte for byte. With --update, a shard's
                       old segment keeps its unchanged files
  --concurrency <n>    files read at once (default 32 when any input is a URL, else 8)
  --format 2|1         the index format (default 2; docs/sidecar-index.md)
  --table <location>   a table index of this Iceberg or Delta table (no files given): its live files at the
                       current snapshot or version, which the index records; probe --table … --index <index>
                       then reads no manifest or commit while the table is unchanged (docs/table-index.md)
  --json               print the result as JSON
  --debug              show stack traces of errors
  -h, --help           this help
`
HELP['index merge'] = `Usage: parquet-bloom index merge <segment>... -o <index-file> [options]

Joins the segments that parquet-bloom index build --shard i/n wrote (all n of one build, each once) into
one sidecar index, reading no Parquet file: the index a build of all the files at once writes, byte for
byte. Indexes built whole merge too (their files ordered by path). Relative paths are rewritten when the
segments lie in another directory than <index-file>.

Options:
  -o, --output <file>  the merged index
  --format 2|1         the merged index's format (default: the first segment's)
  --json               print the result as JSON
  --debug              show stack traces of errors
  -h, --help           this help
`
HELP.index = `Usage:
  parquet-bloom index add <file> -o <out> --column <path>...          (see parquet-bloom index add --help)
  parquet-bloom index build <files-or-dir>... -o <index> --column <path>...  (see parquet-bloom index build --help)
  parquet-bloom index merge <segments>... -o <index>                  (see parquet-bloom index merge --help)
`

/**
 * @param {string[]} argv arguments after the script name
 * @returns {{ kind: 'help', text: string } | { kind: 'version' } | { kind: 'run', command: string, files: string[],
 *   options: Record<string, any> }}
 */
export function parseCommandLine(argv) {
  const [first, ...rest] = argv
  if (first === undefined) throw new UsageError('no command given: use inspect or probe (see parquet-bloom --help)')
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0]
    return { kind: 'help', text: HELP[topic ?? ''] ?? MAIN_HELP }
  }
  if (first === '--version' || first === '-V') return { kind: 'version' }
  if (first === 'index') return parseIndexCommand(rest)
  const spec = COMMANDS[first]
  if (!spec) {
    throw new UsageError(first.startsWith('-')
      ? `${first} must follow a command: use inspect or probe (see parquet-bloom --help)`
      : `unknown command ${JSON.stringify(first)}: use inspect or probe (see parquet-bloom --help)`)
  }
  let parsed
  try {
    parsed = parseArgs({ args: joinDashValues(rest, spec), options: spec, allowPositionals: true, strict: true })
  } catch (caught) {
    const error = /** @type {Error & { code?: string }} */ (caught) // parseArgs's
    // parseArgs explains '--' at length after "Unknown option '--x'."; the first sentence is what matters.
    const text = error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? error.message.split('. ')[0] : oneLine(error.message)
    throw new UsageError(`${text.replace(/^Unknown/, 'unknown')} (see parquet-bloom ${first} --help)`, first)
  }
  /** @type {Record<string, any>} options as parsed, then as checked here (numbers, objects) */
  const options = parsed.values
  const files = parsed.positionals
  if (options.help) return { kind: 'help', text: HELP[first] }
  if (files.length === 0) throw new UsageError(`${first} needs at least one file or URL (see parquet-bloom ${first} --help)`, first)
  options.concurrency = parseConcurrency(options.concurrency, first)
  if (options['cache-dir'] === '') throw new UsageError(`--cache-dir needs a directory (see parquet-bloom ${first} --help)`, first)
  if (options.table !== undefined && !['iceberg', 'delta', 'auto'].includes(options.table)) {
    throw new UsageError(`--table must be iceberg, delta or auto, got ${JSON.stringify(options.table)}`, first)
  }
  if ((options.snapshot !== undefined || options['table-version'] !== undefined) && options.table === undefined) {
    throw new UsageError(`--snapshot and --table-version go with --table (see parquet-bloom ${first} --help)`, first)
  }
  if (options['table-version'] !== undefined) {
    if (!/^\d+$/.test(options['table-version'])) {
      throw new UsageError(`--table-version must be a whole number, got ${JSON.stringify(options['table-version'])}`, first)
    }
    options['table-version'] = Number(options['table-version'])
  }
  if (first === 'probe') checkProbeOptions(options)
  if (first === 'inspect' && options.fpp !== undefined) {
    const fpp = Number(options.fpp)
    if (!options.advise) throw new UsageError('--fpp goes with --advise (see parquet-bloom inspect --help)', first)
    if (!(fpp > 0 && fpp < 1)) throw new UsageError(`--fpp must be a number between 0 and 1, got ${JSON.stringify(options.fpp)}`, first)
    options.fpp = fpp
  }
  return { kind: 'run', command: first, files, options }
}

/**
 * `index add …` (one input file) and `index build …` (files or directories): an output, the columns.
 * @param {string[]} args
 * @returns {{ kind: 'help', text: string } | { kind: 'run', command: string, files: string[], options: Record<string, any> }}
 */
function parseIndexCommand(args) {
  const [sub, ...rest] = args
  const command = `index ${sub}`
  const spec = COMMANDS[command]
  if (sub === undefined || sub === '--help' || sub === '-h') return { kind: 'help', text: HELP.index }
  if (!spec) {
    throw new UsageError(`unknown command ${JSON.stringify(command)}: use index add, index build or index merge (see parquet-bloom ` +
      'index --help)')
  }
  let parsed
  try {
    parsed = parseArgs({ args: rest, options: spec, allowPositionals: true, strict: true })
  } catch (error) {
    const text = oneLine(/** @type {Error} */ (error).message) // parseArgs's
    throw new UsageError(`${text.split('. ')[0].replace(/^Unknown/, 'unknown')} (see parquet-bloom ${command} --help)`, command)
  }
  /** @type {Record<string, any>} options as parsed, then as checked here (numbers, objects) */
  const options = parsed.values
  const files = parsed.positionals
  if (options.help) return { kind: 'help', text: HELP[command] }
  /** @param {string} text */
  const usage = (text) => new UsageError(`${text} (see parquet-bloom ${command} --help)`, command)
  if (options.table !== undefined && (sub !== 'build' || files.length)) {
    throw usage('--table <location> names the table whose files are indexed: give no files with it')
  }
  if (options.table === undefined && (sub === 'add' ? files.length !== 1 : files.length === 0)) {
    const wanted = sub === 'add' ? 'one input file' : sub === 'merge' ? 'segments' : 'files or directories'
    throw usage(`${command} takes ${wanted}, got ${files.length}`)
  }
  if (!options.output) throw usage(`${command} needs -o <out>`)
  if (options.format !== undefined && !['1', '2'].includes(options.format)) {
    throw usage(`--format must be 1 or 2, got ${JSON.stringify(options.format)}`)
  }
  if (sub === 'merge') return { kind: 'run', command, files, options }
  if (!options.column?.length) throw usage(`${command} needs at least one --column <path>`)
  if (options.shard !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(options.shard)
    if (!match || !(Number(match[2]) >= 1 && Number(match[1]) < Number(match[2]))) {
      throw usage(`--shard must be i/n with 0 <= i < n, got ${JSON.stringify(options.shard)}`)
    }
    options.shard = { index: Number(match[1]), count: Number(match[2]) }
  }
  if (options.concurrency !== undefined) {
    if (!/^\d+$/.test(options.concurrency) || !(Number(options.concurrency) >= 1)) {
      throw usage(`--concurrency must be a positive whole number, got ${JSON.stringify(options.concurrency)}`)
    }
    options.concurrency = Number(options.concurrency)
  }
  if (options.fpp !== undefined) {
    const fpp = Number(options.fpp)
    if (!(fpp > 0 && fpp < 1)) throw usage(`--fpp must be a number between 0 and 1, got ${JSON.stringify(options.fpp)}`)
    options.fpp = fpp
  }
  if (options.ndv !== undefined && options.ndv !== 'auto') {
    if (!/^\d+$/.test(options.ndv) || !(Number(options.ndv) > 0)) {
      throw usage(`--ndv must be auto or a positive whole number, got ${JSON.stringify(options.ndv)}`)
    }
    options.ndv = Number(options.ndv)
  }
  return { kind: 'run', command, files, options }
}

/**
 * Checks probe's options and puts them in the form the command takes (numbers, booleans, `where` by key).
 * @param {Record<string, any>} options
 */
function checkProbeOptions(options) {
  if (options.column === undefined || options.column === '') {
    throw new UsageError('probe needs --column <path> (see parquet-bloom probe --help)', 'probe')
  }
  if (!options.value && !options['values-file']) {
    throw new UsageError('probe needs at least one --value or --values-file (see parquet-bloom probe --help)', 'probe')
  }
  options.mode ??= 'auto'
  if (!MODES.includes(options.mode)) {
    throw new UsageError(`--mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(options.mode)}`, 'probe')
  }
  /** @type {Record<string, 'auto' | boolean>} */
  const dictionaries = { auto: 'auto', true: true, false: false }
  const dictionary = dictionaries[options.dictionary ?? 'auto']
  if (dictionary === undefined) {
    throw new UsageError(`--dictionary must be auto, true or false, got ${JSON.stringify(options.dictionary)}`, 'probe')
  }
  options.dictionary = dictionary
  if (options.columns !== undefined) {
    if (!options.confirm) throw new UsageError('--columns goes with --confirm (see parquet-bloom probe --help)', 'probe')
    /** @type {string} */
    const columns = options.columns
    options.columns = columns.split(',').map((c) => c.trim()).filter((c) => c !== '')
  }
  if (options.where !== undefined) {
    /** @type {Record<string, string[]>} */
    const where = {}
    for (const text of options.where) {
      const eq = text.indexOf('=')
      if (eq <= 0) throw new UsageError(`--where needs key=value, got ${JSON.stringify(text)}`, 'probe')
      const key = text.slice(0, eq)
      where[key] = [...(where[key] ?? []), text.slice(eq + 1)]
    }
    options.where = where
  }
  for (const name of ['max-confirm-bytes', 'max-rows']) {
    const text = options[name]
    if (text === undefined) continue
    if (!options.confirm) throw new UsageError(`--${name} goes with --confirm (see parquet-bloom probe --help)`, 'probe')
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(Number(text))) {
      throw new UsageError(`--${name} must be a whole number, got ${JSON.stringify(text)}`, 'probe')
    }
    options[name] = Number(text)
  }
}

/**
 * @param {string | undefined} text
 * @param {string} command
 */
function parseConcurrency(text, command) {
  if (text === undefined) return undefined // inspect: DEFAULT_FILE_CONCURRENCY; probe: one request window over all files
  const n = Number(text)
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1 || n > 256) {
    throw new UsageError(`--concurrency must be an integer from 1 to 256, got ${JSON.stringify(text)}`, command)
  }
  return n
}

/**
 * parseArgs refuses `--value -5` as ambiguous; a value that is not itself one of our options is joined
 * to its option (`--value=-5`), so negative numbers work as people type them.
 * @param {string[]} args
 * @param {OptionsSpec} spec
 */
function joinDashValues(args, spec) {
  const takesValue = new Map() // spelling → long name
  const known = new Set()
  for (const [name, o] of Object.entries(spec)) {
    known.add(`--${name}`)
    if (o.short) known.add(`-${o.short}`)
    if (o.type === 'string') {
      takesValue.set(`--${name}`, name)
      if (o.short) takesValue.set(`-${o.short}`, name)
    }
  }
  const out = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const next = args[i + 1]
    if (takesValue.has(arg) && next !== undefined && next.startsWith('-') && !known.has(next.split('=')[0]) && next !== '--') {
      out.push(`--${takesValue.get(arg)}=${next}`)
      i++
    } else {
      out.push(arg)
    }
  }
  return out
}

function warningLegend() {
  const width = Math.max(...Object.keys(WARNING_CODES).map((k) => k.length))
  return Object.entries(WARNING_CODES).map(([code, text]) => `  ${code.padEnd(width)}  ${text}`).join('\n')
}

/** @param {string} text */
const oneLine = (text) => text.split('\n').map((s) => s.trim()).filter(Boolean).join(' ')
