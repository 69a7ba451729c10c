// What probing a file with Parquet modular encryption uses from js/crypto/, gathered into one module so
// js/crypto/load-crypto.js loads it as one on-demand chunk.
export { openEncryptedFooter } from './encrypted-footer.js'
export { decryptFilter, decryptPageIndex, EncryptedFilterTask } from './encrypted-filter.js'
export { decryptDictionary, dictionaryDecryptable } from './encrypted-dictionary.js'
