// Opens a Parquet file for one test step and closes it whatever the step does.
import { openParquet } from '../../../js/index.js'

/**
 * @template T
 * @param {any} source what openParquet takes
 * @param {object} options openParquet's options
 * @param {(file: import('../../../js/parquet-file.js').ParquetFile) => Promise<T>} fn
 * @returns {Promise<T>}
 */
export async function withFile(source, options, fn) {
  const file = await openParquet(source, options)
  try {
    return await fn(file)
  } finally {
    await file.close()
  }
}
