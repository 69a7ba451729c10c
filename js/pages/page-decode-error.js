// The one error page decoding throws (js/pages/page-decode.js, js/pages/plain-binary-page.js, js/pages/plain-binary-scan.js):
// a page that cannot be decoded or disagrees with its header or the file. Exact lookups turn it into a
// `maybe` with reason confirm-failed, never into an answer; it never reaches the caller.

/** A page that cannot be decoded (or disagrees with its header or the file). */
export class PageDecodeError extends Error {}
