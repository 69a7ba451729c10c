// The parts of hyparquet exact lookups use — its page header, data page v1/v2 and PLAIN readers, its
// footer and schema tree, and its row reader for point lookups — gathered in one module, so that
// js/page-decode.js loads them with one dynamic import and a browser bundle keeps them in one
// on-demand chunk.
export { parquetHeader } from 'hyparquet/src/column.js'
export { readDataPage, readDataPageV2 } from 'hyparquet/src/datapage.js'
export { readPlain } from 'hyparquet/src/plain.js'
export { parquetMetadata } from 'hyparquet/src/metadata.js'
export { getMaxDefinitionLevel, getMaxRepetitionLevel, getSchemaPath } from 'hyparquet/src/schema.js'
export { parquetReadObjects } from 'hyparquet/src/read.js'
