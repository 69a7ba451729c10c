// Giving files the indexes they lack: addIndexes() rewrites a file with bloom filters, its pages untouched.
export { addIndexes, INDEXES_KEY } from './add-indexes.js'
export { buildSidecarIndex } from './sidecar-build.js'
export { openSidecarIndex, SidecarIndex } from './sidecar-index.js'
