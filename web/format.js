// Number and size formatting for the demo page (column types are labelled by the worker, with the package's describeColumnType).

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB']

/**
 * 22 KB, 3.4 MB: decimal units, two or three significant digits.
 * @param {number} n bytes
 */
export function formatBytes(n) {
  if (n < 1000) return `${n} ${n === 1 ? 'byte' : 'bytes'}`
  let unit = 0
  let value = n
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000
    unit++
  }
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1).replace(/\.0$/, '') : value.toFixed(2).replace(/\.?0+$/, '')} ${UNITS[unit]}`
}

export const formatCount = (/** @type {number} */ n) => n.toLocaleString('en-US')

/**
 * @param {number} n
 * @param {string} one the noun for one
 * @param {string} [many] the noun for several
 */
export const plural = (n, one, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`

/** @param {number} x a fraction, 0 to 1 */
export function formatPercent(x) {
  if (x === 0) return '0%'
  if (x < 0.0001) return '<0.01%'
  if (x < 0.01) return `${(x * 100).toPrecision(2)}%`
  return `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`
}
