// probe()'s exact-lookup options (confirm, maxConfirmBytes, maxRows, columns), checked before anything
// is read. Apart from js/confirm/confirm.js so that the probe path carries only this: the confirmation
// itself, and hyparquet behind it, load when a probe first confirms.
import { ErrorCode, ParquetBloomError } from '../errors.js'

export const DEFAULT_MAX_CONFIRM_BYTES = 16 * 1024 * 1024
export const DEFAULT_MAX_ROWS = 1000

/**
 * probe()'s confirm options, checked: null without `confirm: true`.
 * @param {{ confirm?: boolean, maxConfirmBytes?: number, maxRows?: number, columns?: string[] }} options
 * @returns {{ maxConfirmBytes: number, maxRows: number } | null}
 */
export function confirmOptions({ confirm, maxConfirmBytes = DEFAULT_MAX_CONFIRM_BYTES, maxRows = DEFAULT_MAX_ROWS, columns }) {
  if (confirm === undefined || confirm === false) {
    // Row values come from confirmed rows only: asking for them without confirming is a mistake, not a no-op.
    if (columns !== undefined) {
      throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, 'columns needs confirm: true (the rows come from the data pages)')
    }
    return null
  }
  if (confirm !== true) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `confirm must be true or false, got ${JSON.stringify(confirm)}`)
  }
  if (!(Number.isFinite(maxConfirmBytes) && maxConfirmBytes >= 0)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `maxConfirmBytes must be a number >= 0, got ${maxConfirmBytes}`)
  }
  if (!(Number.isInteger(maxRows) && maxRows >= 0)) {
    throw new ParquetBloomError(ErrorCode.INVALID_ARGUMENT, `maxRows must be an integer >= 0, got ${maxRows}`)
  }
  return { maxConfirmBytes, maxRows }
}
