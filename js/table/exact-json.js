// JSON text to values without losing integers past 2^53: Iceberg snapshot ids are Java longs, and
// Delta statistics carry longs and decimals whose digits a double would round. Number literals are
// captured from the source text (strings are skipped token by token, so digits inside them are never
// touched) before JSON.parse sees them.

const TOKENS = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g
const MARK = '\u0000#'

/** The literal text of a JSON number, for callers that need its exact digits (decimals). */
export class JsonNumber {
  /** @param {string} text */
  constructor(text) { this.text = text }
  valueOf() { return Number(this.text) }
  toString() { return this.text }
}

/**
 * JSON.parse, except that integers outside the safe range become bigints and, with `rawNumbers`,
 * every number becomes a JsonNumber holding its literal text.
 * @param {string} text
 * @param {{ rawNumbers?: boolean }} [options]
 * @returns {any}
 */
export function parseExactJson(text, { rawNumbers = false } = {}) {
  const marked = text.replace(TOKENS, (token) => (token[0] === '"' ? token : `"\\u0000#${token}"`))
  return JSON.parse(marked, (_key, value) => {
    if (typeof value !== 'string' || !value.startsWith(MARK)) return value
    const literal = value.slice(MARK.length)
    if (rawNumbers) return new JsonNumber(literal)
    if (/^-?\d+$/.test(literal)) {
      const n = Number(literal)
      return Number.isSafeInteger(n) ? n : BigInt(literal)
    }
    return Number(literal)
  })
}
