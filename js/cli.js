#!/usr/bin/env node
// parquet-bloom command line: `inspect` reports where each bloom filter is and how healthy it is,
// `probe` says per row group whether values may be present, `index add` writes a copy with filters, `index build` one sidecar index for
// many files (or a shard's segment), `index merge` one from segments. Built on the public JS API (js/index.js).
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

import { createFooterCache, directoryStore, openParquet, ParquetBloomError, redactUrl } from './index.js'
import { DEFAULT_FILE_CONCURRENCY, parseCommandLine, UsageError } from './cli/args.js'
import { decryptionFromCommandLine, redactSecrets } from './cli/keys.js'
import { fileProblem, JsonFilesWriter } from './cli/format.js'
import { inspectFile } from './cli/inspect-command.js'
import { inspectText } from './cli/inspect-text.js'
import { loadValues, ProbeSummary, probeFile, probeText } from './cli/probe-command.js'
import { Progress, runFiles } from './cli/run-files.js'
import { isDatasetInput, isTableInput, probeFilesAsDataset, runDatasetInspect, runDatasetProbe } from './cli/dataset.js'
import { indexAdd, indexBuild, indexMerge } from './cli/index-add.js'
import { adviceText } from './cli/advice-text.js'
import { indexWarning } from './cli/index-warning.js'
import { adviseIndexes } from './advice/advise.js'

const EXIT_OK = 0
const EXIT_FAILED = 2

/**
 * @typedef {Record<string, any>} CommandLine the parsed command line's options (js/cli/args.js), and what the run adds to them
 * @typedef {{ message?: unknown, stack?: string, cause?: unknown } | null | undefined} ErrorLike what is thrown, as read here
 */

/** @param {string[]} argv */
async function main(argv) {
  let parsed
  try {
    parsed = parseCommandLine(argv)
  } catch (error) {
    return fail(error, argv.includes('--debug'))
  }
  if (parsed.kind === 'help') {
    process.stdout.write(parsed.text)
    return EXIT_OK
  }
  if (parsed.kind === 'version') {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    process.stdout.write(`${pkg.version}\n`)
    return EXIT_OK
  }
  const { command, files, options } = parsed
  if (command === 'index add' || command === 'index build' || command === 'index merge') {
    try {
      process.stdout.write(command === 'index add'
        ? await indexAdd(files[0], options)
        : command === 'index build' ? await indexBuild(files, options) : await indexMerge(files, options))
      return EXIT_OK
    } catch (error) {
      return fail(error, options.debug)
    }
  }
  // One cache for every file of the run: footers of URLs kept in --cache-dir across runs.
  if (options['cache-dir'] !== undefined) options.footerCache = createFooterCache({ store: directoryStore(options['cache-dir']) })
  try {
    options.decryption = decryptionFromCommandLine(options)
    return command === 'inspect' ? await runInspect(files, options) : await runProbe(files, options)
  } catch (error) {
    return fail(error, options.debug)
  }
}

/**
 * @param {string[]} files
 * @param {CommandLine} options
 */
async function runInspect(files, options) {
  if (isTableInput(files, options) || isDatasetInput(files)) return runDatasetInspect(files[0], options)
  if (options.advise) {
    return runOverFiles(files, options, {
      job: (source, label) => withFile(source, options, async (file) => {
        // The published ParquetFile is the class's declared face; advise.js takes the class.
        const opened = /** @type {import('./parquet-file.js').ParquetFile} */ (/** @type {unknown} */ (file))
        return { file: label, columns: await adviseIndexes(opened, { fpp: options.fpp }) }
      }),
      text: (advice) => adviceText(advice, options.fpp ?? 0.01),
      json: (advice) => advice,
    })
  }
  return runOverFiles(files, options, {
    job: (source, label) => withFile(source, options, async (file) => {
      await file.validateFooter() // the report shows the footer: it must be the file's current one
      return inspectFile(file, { label })
    }),
    text: (report) => `${inspectText(report)}\n`,
    json: jsonInspectShape,
  })
}

/**
 * The documented JSON shape: I/O stats and FIXED_LEN_BYTE_ARRAY widths are for the text form only.
 * @param {Awaited<ReturnType<typeof inspectFile>>} report
 */
function jsonInspectShape({ stats, rowGroups, ...file }) {
  return {
    ...file,
    rowGroups: rowGroups.map((rg) => ({ ...rg, columns: rg.columns.map(({ typeLength, ...column }) => column) })),
  }
}

/**
 * @param {string[]} files
 * @param {CommandLine} options
 */
async function runProbe(files, options) {
  const values = await loadValues(options)
  if (isTableInput(files, options) || isDatasetInput(files)) return runDatasetProbe(files[0], values, options)
  // Named files have no partitions: a --where ignored would read as a filter applied.
  if (options.where !== undefined) {
    throw new UsageError('--where filters a dataset\'s partitions (one directory, glob or s3:// prefix), ' +
      'not files named one by one', 'probe')
  }
  // One sidecar index for every file of the run, loaded (like the index-builder) only when asked for.
  if (options.index !== undefined) {
    const { openSidecarIndex } = await import('./index-builder/index.js')
    options.sidecar = await openSidecarIndex(options.index)
  }
  try {
    return await probeFiles(files, options, values)
  } finally {
    await options.sidecar?.close()
  }
}

/**
 * @param {string[]} files
 * @param {CommandLine} options
 * @param {unknown[]} values
 */
async function probeFiles(files, options, values) {
  const summary = new ProbeSummary(values)
  const probeOptions = { column: options.column, values, mode: options.mode, statistics: !options['no-statistics'],
    dictionary: options.dictionary, confirm: options.confirm, maxConfirmBytes: options['max-confirm-bytes'], maxRows: options['max-rows'],
    columns: options.columns, explain: options.explain }
  // Several files are probed as one dataset: one window of requests, all footers in one wave, and one
  // call of the sidecar index for all of them. (A file named twice is probed twice, file by file.)
  /** @type {Array<import('./index.js').DatasetIndexStatus | undefined>} */
  const indexStatuses = []
  // With --explain each file is probed on its own, so each has its own read plan.
  const asDataset = files.length > 1 && new Set(files).size === files.length && !options.explain
    ? probeFilesAsDataset(files, { ...probeOptions, label: labelOf, footerCache: options.footerCache, decryption: options.decryption,
      fileConcurrency: options.concurrency,
      index: options.sidecar, indexStatuses })
    : undefined
  // A file probed on its own asks the index through openParquet: what it says of the file joins the others'.
  /** @type {import('./index.js').OpenParquetOptions['index']} */
  const sidecar = options.sidecar && { refine: async (probe) => indexStatuses.push(await options.sidecar.refine(probe)) }
  const code = await runOverFiles(files, options, {
    job: async (source, label) => {
      if (asDataset) return asDataset.get(source)
      const started = performance.now()
      return withFile(source, { ...options, sidecar, plan: options.explain }, (file) =>
        probeFile(file, { label, ...probeOptions, started }))
    },
    text: (entry) => {
      summary.add(entry)
      return `${probeText(entry)}\n`
    },
    json: (entry) => {
      summary.add(entry)
      const { typeLabel, ...shape } = entry
      return shape
    },
    end: (failed) => {
      if (!options.json) process.stdout.write(`${summary.text(failed)}\n`)
      const warning = indexWarning(indexStatuses)
      if (warning) process.stderr.write(`${redactSecrets(warning)}\n`)
    },
  })
  return code
}

/**
 * Runs `job` over every file with bounded concurrency, writes each result (text or a JSON entry) in
 * input order as soon as it and its predecessors are done, and reports failures on stderr.
 * @param {string[]} files
 * @param {Record<string, any>} options the parsed command line (js/cli/args.js)
 * @param {{ job: (source: any, label: string) => Promise<any>, text: (result: any) => string,
 *   json: (result: any) => any, end?: (failed: number) => void }} output `end(failed)` runs after every file
 */
async function runOverFiles(files, options, { job, text, json, end }) {
  const progress = new Progress(files.length)
  const writer = options.json ? new JsonFilesWriter(process.stdout) : undefined
  let failed = 0
  await runFiles(files, {
    concurrency: options.concurrency ?? DEFAULT_FILE_CONCURRENCY,
    progress,
    job: (input) => job(input, labelOf(input)),
    report: (input, { value, error }) => {
      if (error !== undefined) {
        failed++
        progress.log(errorLine(error, labelOf(input), options.debug))
        writer?.add({ file: labelOf(input),
          error: { code: error instanceof ParquetBloomError ? error.code : 'INTERNAL', message: messageOf(error, labelOf(input)) } })
        return
      }
      if (writer) writer.add(json(value))
      else process.stdout.write(`${text(value)}\n`)
    },
  })
  progress.clear()
  writer?.end()
  end?.(failed)
  return failed ? EXIT_FAILED : EXIT_OK
}

/**
 * Opens a file, hands it to `fn`, and closes it whatever happens.
 * @template T
 * @param {string} source
 * @param {{ footerCache?: import('./index.js').FooterCache, decryption?: import('./index.js').DecryptionOptions,
 *   sidecar?: import('./index.js').OpenParquetOptions['index'], plan?: boolean }} options
 * @param {(file: import('./index.js').ParquetFile) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withFile(source, { footerCache, decryption, sidecar, plan }, fn) {
  const file = await openParquet(source, { footerCache, decryption, index: sidecar, ...(plan ? { plan: true } : {}) })
  try {
    return await fn(file)
  } finally {
    await file.close()
  }
}

/**
 * How a file is named in output: the path as given, a URL without credentials.
 * @param {string} input
 */
function labelOf(input) {
  if (/^https?:\/\//i.test(input)) {
    try {
      return redactUrl(new URL(input))
    } catch {
      return input
    }
  }
  return input
}

/**
 * The message's first line, after the file it is about (`<file>: <problem>`).
 * @param {unknown} error
 * @param {string} [label]
 */
function messageOf(error, label) {
  const message = redactSecrets(String(/** @type {ErrorLike} */ (error)?.message ?? error).split('\n')[0])
  return label === undefined ? message : fileProblem(label, message)
}

/**
 * @param {unknown} error
 * @param {string} label
 * @param {boolean} debug
 */
function errorLine(error, label, debug) {
  const internal = error instanceof ParquetBloomError ? '' : 'internal error: '
  const problem = messageOf(error, label).slice(label.length + 2)
  const line = `parquet-bloom: ${label}: ${internal}${problem}${internal && !debug ? ' (--debug shows where)' : ''}`
  if (!debug) return line
  return `${line}\n${describeForDebug(error)}`
}

/** @param {unknown} error */
function describeForDebug(error) {
  const failure = /** @type {ErrorLike} */ (error)
  const parts = [failure?.stack ?? String(error)]
  for (let cause = /** @type {ErrorLike} */ (failure?.cause); cause; cause = /** @type {ErrorLike} */ (cause.cause)) {
    parts.push(`caused by: ${cause?.stack ?? cause}`)
  }
  return redactSecrets(parts.join('\n'))
}

/**
 * @param {unknown} error
 * @param {boolean} debug
 */
function fail(error, debug) {
  const known = error instanceof UsageError || error instanceof ParquetBloomError
  const line = known ? messageOf(error) : `internal error: ${messageOf(error)}${debug ? '' : ' (--debug shows where)'}`
  process.stderr.write(`parquet-bloom: ${line}\n`)
  if (debug) process.stderr.write(`${describeForDebug(error)}\n`)
  return EXIT_FAILED
}

// `parquet-bloom probe ... | head` closes stdout early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? EXIT_OK)
  throw error
})

process.exitCode = await main(process.argv.slice(2))
