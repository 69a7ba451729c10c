// Which metadata.json an Iceberg table opens at: the one the caller names (options.metadata), else the
// newest in a local metadata/ folder, else the one metadata/version-hint.text points at. Two files of the
// newest version in a folder (`00005-<uuid>`: one a commit the catalog refused, left behind) are decided by
// the hint when it names one of them, else refused: either may be the table, and the wrong one answers
// for another snapshot's files (a file only the other holds would be a false "absent"). Writers put a
// version number in the hint (`3`: Hadoop tables' v3.metadata.json), a file's name with or without its
// suffix (`00001-<uuid>`, `v3`, `00001-<uuid>.metadata.json`), or nothing (Spark 4 with Iceberg 1.10).
// A folder over HTTP cannot be listed, so the names a hint may mean are asked for in one wave and the
// first that exists in order of preference wins; an empty hint is answered by v1.metadata.json upward.
import { ErrorCode, ParquetBloomError } from '../errors.js'
import { parseExactJson } from './exact-json.js'
import { locationUnder, tableError } from './table-location.js'
import { readThroughPointer, textOf } from './table-io.js'

/** @param {string} message @param {string} source */
const malformed = (message, source) => tableError(ErrorCode.MALFORMED_TABLE, message, { source })

/**
 * Whether a metadata.json's name is never written again: one with a UUID (`<version>-<uuid>.metadata.json`) is
 * unique to one commit. A name without (a Hadoop table's `v1.metadata.json`, `1.metadata.json`) is written again
 * by a table dropped and created anew at the same location, so it is read each time, never from the cache: the
 * old table's metadata would answer for the new one's files.
 * @param {string} location
 */
const writtenOnce = (location) =>
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}[^/\\]*$/i.test(location)
const ADVICE = 'pass the metadata.json\'s own URL or path, or options.metadata (the metadata.json to read, relative to the table)'
// An empty hint probes v1–v16 in one wave, then v17–v48, then v49–v128: Hadoop tables number their
// commits without gaps, so the wave whose last version is missing holds the newest.
const VERSION_WAVE_ENDS = [16, 48, 128]

/**
 * The location of a file of the table's metadata/ folder, by a name this module chose (listed, hinted or numbered: a
 * name without a path, so never outside the root).
 * @param {import('./table-location.js').TableRoot} root
 * @param {string} name
 */
const inMetadataFolder = (root, name) => /** @type {string} */ (locationUnder(root, `metadata/${name}`))

/**
 * The metadata.json of a table: where it was read and what it holds.
 * @param {import('./table-io.js').TableIO} io
 * @param {import('./table-location.js').TableRoot} root
 * @param {{ metadata?: string }} options
 */
export async function readIcebergMetadata(io, root, options) {
  if (options.metadata) {
    const location = locationUnder(root, options.metadata) ?? options.metadata
    // A metadata.json is never rewritten (each commit writes a new one): only the pointer changes.
    return { location, metadata: parsed(location, await io.read(location, { immutable: writtenOnce(location) })) }
  }
  const newest = newestListed(await io.list(/** @type {string} */ (locationUnder(root, 'metadata'))))
  if (newest.length > 0) {
    const location = inMetadataFolder(root, newest.length === 1 ? newest[0] : await hintAmong(io, root, newest))
    return { location, metadata: parsed(location, await io.read(location, { immutable: writtenOnce(location) })) }
  }
  const found = await hintedMetadata(io, root)
  return { location: found.location, metadata: parsed(found.location, found.bytes) }
}

/**
 * @param {string} location
 * @param {Uint8Array} bytes
 * @returns {import('./iceberg.js').IcebergMetadata}
 */
function parsed(location, bytes) {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) throw malformed(`${location} is gzip-compressed: compressed metadata is not read`, location)
  try {
    return parseExactJson(textOf(bytes))
  } catch (err) {
    throw tableError(ErrorCode.MALFORMED_TABLE,
      `${location} is not JSON: ${/** @type {Error} */ (err).message}`, { cause: err, source: location })
  }
}

/**
 * The names of a listing's versioned metadata.json files of its highest version: none (no listing, or no such
 * name in it), one, or several (two writers' files of one version number).
 * @param {string[] | null} listing
 * @returns {string[]}
 */
function newestListed(listing) {
  const versions = (listing ?? []).map((name) => ({ name, version: metadataVersion(name) }))
    .filter(/** @returns {x is { name: string, version: number }} */ (x) => x.version !== null)
  const top = versions.reduce((most, x) => Math.max(most, x.version), -1) // not Math.max(...): a folder may list 10^5 files
  return versions.filter((x) => x.version === top).map((x) => x.name).sort()
}

/**
 * The one of `names` (metadata files of one version) that metadata/version-hint.text names; MALFORMED_TABLE
 * when it names none of them, or there is no hint.
 * @param {import('./table-io.js').TableIO} io
 * @param {import('./table-location.js').TableRoot} root
 * @param {string[]} names
 */
async function hintAmong(io, root, names) {
  const { hintLocation, text } = await readHint(io, root)
  const hinted = text === undefined ? [] : hintedNames(text)
  const chosen = names.filter((name) => hinted.includes(name))
  if (chosen.length === 1) return chosen[0]
  const which = text !== undefined ? `${hintLocation} names none of them` : 'no metadata/version-hint.text names one'
  throw malformed(`${names.length} metadata files share the newest version (${names.map((n) => `metadata/${n}`).join(', ')}) ` +
    `and ${which}: one may be a commit that failed; ${ADVICE}`, /** @type {string} */ (locationUnder(root, 'metadata')))
}

/** @param {string} name */
function metadataVersion(name) {
  const m = /^v(\d+)\.metadata\.json$/.exec(name) ?? /^(\d+)-[^/]*\.metadata\.json$/.exec(name)
  return m ? Number(m[1]) : null
}

/**
 * The names a version hint's text may mean, most likely first. A number as Hadoop tables write it and
 * DuckDB's iceberg extension reads it (`v<N>.metadata.json`, then `<N>.metadata.json`); a name with the
 * suffix added, with a `v` before it too (DuckDB's first form), and as it is. A path or URL in the hint
 * counts by its last segment: the metadata lives in the table's own metadata/ folder.
 * @param {string} text the hint, trimmed
 */
function hintedNames(text) {
  const name = text.split(/[/\\]/).pop() ?? ''
  if (name === '' || name === '.' || name === '..') return []
  if (/\.metadata\.json$/.test(name)) return [name]
  if (/^\d+$/.test(name)) return [`v${name}.metadata.json`, `${name}.metadata.json`]
  return [`${name}.metadata.json`, ...(name.startsWith('v') ? [] : [`v${name}.metadata.json`]), name]
}

const MOST_HINTS_KEPT = 1024
/** @type {WeakMap<import('./table-io.js').TableIO, Promise<{ location: string, bytes: Uint8Array } | null>>} */
const ahead = new WeakMap()

/**
 * Starts reading, anew, the metadata.json the last open of this table read through its version hint, when its name
 * may be written again (a table created anew at its location writes v1.metadata.json again, so no kept copy may stand
 * for it): in the round of the reads in flight (call it after them: the hint's, or the format's detection, which
 * reads the hint), so that when the hint still names it an unchanged table's open takes that one round. What the
 * hint's reading then uses.
 * @param {import('./table-io.js').TableIO} io
 * @param {import('./table-location.js').TableRoot} root
 */
export function readPreviousMetadata(io, root) {
  const previous = readThroughPointer.get(inMetadataFolder(root, 'version-hint.text'))
  const reading = previous === undefined || writtenOnce(previous) ? Promise.resolve(null)
    : io.read(previous, { optional: true }).then((bytes) => (bytes ? { location: previous, bytes } : null))
  reading.catch(() => {}) // awaited by the hint's reading, when the table is Iceberg's
  ahead.set(io, reading)
  return reading
}

/** @param {string} hintLocation @param {string} metadataLocation */
function remember(hintLocation, metadataLocation) {
  if (readThroughPointer.size >= MOST_HINTS_KEPT) readThroughPointer.clear()
  readThroughPointer.set(hintLocation, metadataLocation)
}

/**
 * metadata/version-hint.text: where it is, and its text trimmed (undefined: there is none).
 * @param {import('./table-io.js').TableIO} io
 * @param {import('./table-location.js').TableRoot} root
 * @returns {Promise<{ hintLocation: string, text: string | undefined }>}
 */
async function readHint(io, root) {
  const hintLocation = inMetadataFolder(root, 'version-hint.text')
  const hint = await io.read(hintLocation, { optional: true })
  return { hintLocation, text: hint ? textOf(hint).trim() : undefined }
}

/**
 * @param {import('./table-io.js').TableIO} io
 * @param {import('./table-location.js').TableRoot} root
 */
async function hintedMetadata(io, root) {
  const hinting = readHint(io, root)
  const early = ahead.get(io) ?? readPreviousMetadata(io, root)
  ahead.delete(io)
  const [{ hintLocation, text }, previous] = await Promise.all([hinting, early])
  if (text === undefined) throw malformed(`${hintLocation} is missing: ${ADVICE}`, hintLocation)
  if (text === '') return newestVersion(io, root, hintLocation)
  const names = hintedNames(text)
  const locations = names.map((n) => inMetadataFolder(root, n))
  // The hint's first choice read already, beside it; else its names, in one more round.
  const found = previous && previous.location === locations[0] ? previous
    : names.length ? await io.readFirstExisting(locations, { immutable: locations.every(writtenOnce) }) : null
  if (found) remember(hintLocation, found.location)
  if (!found) {
    const tried = names.map((n) => `metadata/${n}`).join(', ') || 'no file name'
    throw malformed(`${hintLocation} says ${JSON.stringify(text)}, and none of the files it may name exists (${tried}): ` +
      `${ADVICE}`, hintLocation)
  }
  return found
}

/**
 * The newest of v1.metadata.json upward, probed in waves (no listing tells it over HTTP).
 * @param {import('./table-io.js').TableIO} io
 * @param {import('./table-location.js').TableRoot} root
 * @param {string} hintLocation
 */
async function newestVersion(io, root, hintLocation) {
  let newest = null
  let from = 1
  for (const end of VERSION_WAVE_ENDS) {
    const versions = Array.from({ length: end - from + 1 }, (_, k) => end - k)
    // vN names are written again by a table created anew at the same location: never from the cache.
    const found = await io.readFirstExisting(versions.map((v) => inMetadataFolder(root, `v${v}.metadata.json`)), { immutable: false })
    if (found) newest = found
    // The wave's last version missing: the newest is in this wave, or was the previous wave's last.
    if (!found || found.location !== locationUnder(root, `metadata/v${end}.metadata.json`)) break
    from = end + 1
  }
  if (!newest) {
    throw malformed(`${hintLocation} is empty and no metadata/v1–v${VERSION_WAVE_ENDS[0]}.metadata.json exists ` +
      `(a folder over HTTP cannot be listed): ${ADVICE}`, hintLocation)
  }
  const last = VERSION_WAVE_ENDS[VERSION_WAVE_ENDS.length - 1]
  if (newest.location === locationUnder(root, `metadata/v${last}.metadata.json`)) {
    throw malformed(`${hintLocation} is empty and metadata/v${last}.metadata.json exists: ` +
      `the table has more versions than the ${last} probed for it: ${ADVICE}`, hintLocation)
  }
  return newest
}
