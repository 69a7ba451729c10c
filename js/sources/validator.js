// What tells one version of a file from another, in one shape everywhere: a URL's ETag (strong, or weak
// with W/) and Last-Modified (RFC 9110 §8.8), a local file's modification and change times. Made from a response's
// headers, a listing's raw ETag or a stat; compared for a change and turned into a request precondition.
// The text a sidecar index records for one is js/sources/validator-text.js's.

/**
 * A version of a file as its validators tell it; a field is undefined when nothing gave it. `weak`: the
 * ETag is weak (W/"…"), equal for equivalent content but not byte-for-byte: never a precondition, never
 * recorded. A Validator without any field says nothing: only the size then tells versions apart. `ctimeMs`: a local
 * file's inode change time, which a rename over it or a write changes and no tool sets back.
 * @typedef {{ etag?: string, weak?: boolean, lastModified?: string, mtimeMs?: number, ctimeMs?: number }} Validator
 */

/**
 * An ETag as a server or a listing gives it, quotes and W/ included (undefined: none, and no validator).
 * @param {string | undefined} etag
 * @param {string} [lastModified]
 * @returns {Validator}
 */
export function validatorFromEtag(etag, lastModified) {
  return { etag, weak: etag?.startsWith('W/') || undefined, lastModified }
}

/**
 * What a response's ETag and Last-Modified say (fields undefined for headers it did not send).
 * @param {{ get(name: string): string | null }} headers
 * @returns {Validator}
 */
export function validatorFromHeaders(headers) {
  return validatorFromEtag(headers.get('etag') ?? undefined, headers.get('last-modified') ?? undefined)
}

/** The strong ETag, when there is one (an empty ETag header is none). @param {Validator | null | undefined} v */
export function strongEtag(v) {
  return v?.etag && !v.weak ? v.etag : undefined
}

/**
 * Whether a URL's validator can tell a replaced file from the one it describes: a strong ETag or a
 * Last-Modified (a weak ETag alone may stay the same across a rewrite).
 * @param {Validator | null | undefined} v
 */
export function canValidate(v) {
  return Boolean(strongEtag(v) || v?.lastModified)
}

/**
 * Both carry an ETag and the two differ: another version for certain, whatever else they say.
 * @param {Validator | null | undefined} a
 * @param {Validator | null | undefined} b
 */
export function etagsDiffer(a, b) {
  return a?.etag !== undefined && b?.etag !== undefined && a.etag !== b.etag
}

/**
 * How a response's validators (`now`) show another version of a URL's file than `was` described, by the
 * validator `was` relies on (its ETag, else its Last-Modified); undefined when they do not. (A local
 * file's modification time is compared as the text a sidecar records: js/sources/validator-text.js.)
 * @param {Validator} was
 * @param {Validator} now
 * @returns {string | undefined}
 */
export function validatorChange(was, now) {
  if (was.etag !== undefined) return now.etag !== was.etag ? `its ETag is ${now.etag ?? 'gone'}, was ${was.etag}` : undefined
  if (was.lastModified !== undefined && now.lastModified !== was.lastModified) {
    return `its Last-Modified is ${now.lastModified ?? 'gone'}, was ${was.lastModified}`
  }
  return undefined
}

/**
 * The request header that makes a server refuse (412) any other version: If-Match with a strong ETag
 * (it compares strongly, RFC 9110 §13.1.1), else If-Unmodified-Since; undefined when neither applies.
 * @param {Validator | null | undefined} v
 * @returns {{ name: string, value: string } | undefined}
 */
export function preconditionFor(v) {
  const etag = strongEtag(v)
  if (etag !== undefined) return { name: 'if-match', value: etag }
  if (v?.lastModified !== undefined) return { name: 'if-unmodified-since', value: v.lastModified }
  return undefined
}
