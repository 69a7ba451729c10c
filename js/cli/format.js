// Text and JSON output helpers for the CLI: human-readable sizes and ratios, aligned tables, JSON-safe
// values (bigint → string, bytes → hex), and a JSON document streamed file by file.

/**
 * 1536 → '1.5 KB' (binary units, as `ls -h` uses).
 * @param {number} n
 */
export function formatBytes(n) {
  if (!Number.isFinite(n)) return '?'
  if (n < 1024) return `${n} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = n
  let unit = -1
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))} ${units[unit]}`
}

/**
 * 0.0136 → '1.4%', 1 → '100%', tiny but nonzero → '<0.1%'.
 * @param {number} ratio
 */
export function formatPercent(ratio) {
  if (!Number.isFinite(ratio)) return '?'
  if (ratio === 0) return '0%'
  if (ratio < 0.001) return '<0.1%'
  if (ratio >= 1) return '100%'
  const pct = ratio * 100
  return `${pct >= 10 ? Math.round(pct) : Number(pct.toFixed(1))}%`
}

/**
 * A probability compactly: '1.2e-6', '0.013', '0.87', '1'; '?' when there is none.
 * @param {number | null} p
 */
export function formatProbability(p) {
  if (p === null || !Number.isFinite(p)) return '?'
  if (p === 0) return '0'
  if (p >= 1) return '1'
  if (p < 0.001) return p.toExponential(1)
  return String(Number(p.toPrecision(2)))
}

/**
 * An estimated count: '14', '2.1k', '3.4M', '∞' (saturated filters imply no finite count).
 * @param {number | null | undefined} n
 */
export function formatCount(n) {
  if (n === null || n === undefined) return '-'
  if (!Number.isFinite(n)) return '∞'
  if (n < 10000) return String(Math.round(n))
  if (n < 1e6) return `${Number((n / 1000).toFixed(1))}k`
  if (n < 1e9) return `${Number((n / 1e6).toFixed(1))}M`
  return `${Number((n / 1e9).toFixed(1))}G`
}

/**
 * Rows of cells as aligned text. `align` holds 'l' or 'r' per column; trailing spaces are trimmed.
 * @param {string[][]} rows first row is the header
 * @param {string} align e.g. 'rllrr'
 */
export function formatTable(rows, align = '') {
  /** @type {number[]} */
  const widths = []
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell)) })
  return rows.map((row) => row.map((cell, i) => {
    const pad = ' '.repeat(widths[i] - displayWidth(cell))
    return align[i] === 'r' ? pad + cell : cell + pad
  }).join('  ').trimEnd()).join('\n')
}

// Column names and values may hold wide characters; counting code points keeps most tables aligned.
/** @param {string} text */
function displayWidth(text) {
  let n = 0
  for (const _ of text) n++
  return n
}

/** @param {Uint8Array} bytes */
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/**
 * A copy of `value` that JSON.stringify renders faithfully: bigint → decimal string, Uint8Array → hex
 * string, Date → ISO string, non-finite numbers → null.
 * @param {unknown} value
 * @returns {unknown}
 */
export function jsonSafe(value) {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (value instanceof Uint8Array) return hex(value)
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (Array.isArray(value)) return value.map(jsonSafe)
  if (value && typeof value === 'object') {
    /** @type {Record<string, unknown>} */
    const out = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = jsonSafe(v)
    return out
  }
  return value
}

/**
 * A file's failure as every stderr line says one (docs/cli.md): `<file>: <problem>`, the file first even when the
 * message names it elsewhere (`network error requesting … of <url>`, a table file's full path, an internal error).
 * @param {string} file
 * @param {string} message
 */
export function fileProblem(file, message) {
  return message.startsWith(`${file}: `) ? message : `${file}: ${message}`
}

/**
 * How a probe value is shown in text output: strings quoted only when they need it.
 * @param {unknown} value
 */
export function showValue(value) {
  if (value instanceof Uint8Array) return `0x${hex(value)}`
  const text = String(value)
  return text === '' || /[\s"',:]/.test(text) || text !== text.trim() ? JSON.stringify(text) : text
}

/**
 * Writes `{ "files": [ ...items ] }` one item at a time, so a run over thousands of files never holds
 * the whole document.
 */
export class JsonFilesWriter {
  /** @param {{ write(text: string): unknown }} out a stream */
  constructor(out) {
    this.out = out
    this.count = 0
  }

  /** @param {unknown} item */
  add(item) {
    this.out.write(`${this.count === 0 ? '{ "files": [\n' : ',\n'}${JSON.stringify(jsonSafe(item))}`)
    this.count++
  }

  end() {
    this.out.write(this.count === 0 ? '{ "files": [] }\n' : '\n] }\n')
  }
}
