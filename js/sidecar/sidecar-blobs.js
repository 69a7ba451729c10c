// The blob types a sidecar index's Puffin file holds (docs/sidecar-index.md): format 1's bitsets and
// JSON directory, format 2's bit slices, fixed files part, path hashes, identity hashes (files blob
// version 3) and details pages, and a table index's snapshot record (js/table/table-snapshot-record.js).
// Reader and writer name them from here.
export const BITSETS_BLOB = 'parquet-bloom-sbbf-bitsets-v1'
export const DIRECTORY_BLOB = 'parquet-bloom-directory-v1'
export const SLICES_BLOB = 'parquet-bloom-sbbf-bitslices-v2'
export const DETAILS_BLOB = 'parquet-bloom-details-v2'
export const PATH_HASHES_BLOB = 'parquet-bloom-path-hashes-v2'
export const FILES_BLOB = 'parquet-bloom-files-v2'
export const TABLE_SNAPSHOT_BLOB = 'parquet-bloom-table-snapshot-v1'
export const IDENTITIES_BLOB = 'parquet-bloom-identities-v3'
