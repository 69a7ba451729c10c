// Giving files the indexes they lack: addIndexes() rewrites a file with bloom filters (and page indexes), its pages
// untouched; buildSidecarIndex()/openSidecarIndex() keep one index beside a dataset, mergeSidecarSegments() joins one
// built in shards; adviseIndexes() says which is worth it.
export { addIndexes, INDEXES_KEY } from './add-indexes.js'
export { buildSidecarIndex } from './sidecar-build.js'
export { mergeSidecarSegments } from './sidecar-merge.js'
export { openSidecarIndex, SidecarIndex } from '../sidecar/sidecar-index.js'
export { adviseIndexes } from '../advice/advise.js'
