// Loads Parquet modular encryption (the rest of js/crypto/) on demand, so a probe of an unencrypted file
// never downloads it: readFooter loads it once the footer says the file is encrypted (PARE magic) or keys
// are given, before any plan is made. A chunk carries a crypto context only in a layout opened that way,
// so the synchronous planning code reaches the helpers through loadedCrypto() without awaiting.

let loading = null
/** @type {typeof import('./probe-crypto.js') | null} */
let loaded = null

/** The encryption helpers probing uses, loaded once. */
export function loadCrypto() {
  loading ??= import('./probe-crypto.js').then((helpers) => (loaded = helpers)).catch((error) => {
    loading = null // a later call may succeed (a chunk request that failed transiently)
    throw error
  })
  return loading
}

/**
 * The helpers loadCrypto() loaded: only code handling a chunk's crypto context calls this, and such a
 * context exists only after the load.
 */
export function loadedCrypto() {
  if (!loaded) throw new Error('js/crypto is used before loadCrypto() has loaded it')
  return loaded
}
