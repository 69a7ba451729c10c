// A Validator (js/sources/validator.js) as the text a sidecar index records for a file — `etag:<strong
// ETag>`, `last-modified:<date>`, `mtime:<ms>;ctime:<ms>` — and the kind of such a text. A module of its own so that
// reading files (the browser's first download) does not carry what only the sidecar code uses.
import { strongEtag } from './validator.js'

/**
 * The form a sidecar index records: `etag:<strong ETag>`, else `last-modified:<date>`, else
 * `mtime:<ms>;ctime:<ms>` (a local file's modification time, and its change time: tools that set times to the
 * second — tar, unzip, cp -p, aws s3 sync — give many files one mtime, and one of them renamed or copied over another
 * of the same size changes nothing else the index records), else `etag:<weak ETag>` (W/"…"); null when none of
 * those is known.
 * @param {import('./validator.js').Validator | null | undefined} v
 * @returns {string | null}
 */
export function recordedValidator(v) {
  const etag = strongEtag(v)
  if (etag !== undefined) return `etag:${etag}`
  if (v?.lastModified) return `last-modified:${v.lastModified}`
  if (v?.mtimeMs !== undefined) return `mtime:${v.mtimeMs}${v.ctimeMs === undefined ? '' : `;ctime:${v.ctimeMs}`}`
  // A weak ETag alone: equal ones do not prove the same bytes (the size still decides then), but a changed one shows
  // a changed file, which recording nothing would let pass for the file indexed.
  if (v?.etag) return `etag:${v.etag}`
  return null
}

/**
 * Whether two validator texts name the same version. A local file's mtime given alone on either side — by an index
 * built before change times were recorded, or by a caller's listing — is compared with the other's mtime: that is
 * all it can tell.
 * @param {string} recorded
 * @param {string} found
 */
export function sameValidator(recorded, found) {
  if (recorded === found) return true
  const mtimes = recorded.startsWith('mtime:') && found.startsWith('mtime:')
  return mtimes && (!recorded.includes(';') || !found.includes(';')) && recorded.split(';')[0] === found.split(';')[0]
}

/**
 * The kind of a recorded validator; 'unsettled' for a build's record of an mtime or Last-Modified (or an ETag sent
 * with such a date) too recent to tell versions apart (`unsettled-mtime:…`, `unsettled-last-modified:…`,
 * `unsettled-etag:…`), 'other' for a string in another form (a caller's own), null for none.
 * @param {string | null | undefined} recorded
 * @returns {'mtime' | 'etag' | 'last-modified' | 'unsettled' | 'other' | null}
 */
export function recordedValidatorKind(recorded) {
  if (!recorded) return null
  if (/^unsettled-(mtime|etag|last-modified):/.test(recorded)) return 'unsettled'
  const kind = /^(mtime|etag|last-modified):/.exec(recorded)?.[1]
  return /** @type {any} */ (kind ?? 'other')
}
