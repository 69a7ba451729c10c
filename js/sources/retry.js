// Which failed requests are worth sending again, and when: range GETs and listings are idempotent, so
// a transient failure — 429/500/502/503/504 (S3's SlowDown is a 503), a connection reset or dropped
// mid-body, a request timeout — is retried after a bounded, jittered exponential backoff. An abort is
// never retried, nor is an answer that is wrong rather than unavailable (404, a bad Content-Range).
import { ErrorCode, invalidArgument } from '../errors.js'
import { describeValue, isTimeout } from './shared.js'

export const DEFAULT_RETRIES = 3
export const RETRY_BASE_MS = 50
export const RETRY_MAX_MS = 800
export const MAX_RETRIES = 10
export const TRANSIENT_STATUSES = new Set([429, 500, 502, 503, 504])

// Failures of the connection that no retry mends: the host does not exist, TLS refuses the peer.
const PERMANENT_CAUSES = new RegExp('^(ENOTFOUND|ERR_INVALID_URL|ERR_TLS_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|' +
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE|ERR_SSL_)')

/**
 * options.retries checked: a count of retries after the first attempt (0 disables them).
 * @param {unknown} value
 * @returns {number}
 */
export function resolveRetries(value) {
  if (value === undefined || value === null) return DEFAULT_RETRIES
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_RETRIES) {
    throw invalidArgument(`options.retries must be an integer from 0 to ${MAX_RETRIES}, got ${describeValue(value)}`)
  }
  return value
}

/**
 * Milliseconds to wait before retry number `attempt` (0-based): half the ceiling plus a random half.
 * @param {number} attempt
 */
export function retryDelayMs(attempt, random = Math.random) {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempt)
  return ceiling / 2 + random() * (ceiling / 2)
}

/**
 * What isTransientFailure reads of a thrown value (through ?., so any value reads as one: a primitive has no code).
 * @typedef {{ code?: unknown, status?: number, cause?: Failure } | null | undefined} Failure
 */

/**
 * True for a failure another attempt may not meet (see the top of this file).
 * @param {unknown} thrown
 */
export function isTransientFailure(thrown) {
  const error = /** @type {Failure} */ (thrown)
  if (error?.code === ErrorCode.HTTP_STATUS) return TRANSIENT_STATUSES.has(/** @type {number} */ (error.status))
  if (error?.code === ErrorCode.ABORTED) return isTimeout(error)
  if (error?.code === ErrorCode.IO) {
    for (let cause = error.cause, depth = 0; cause && depth < 4; cause = cause.cause, depth++) {
      if (typeof cause.code === 'string' && PERMANENT_CAUSES.test(cause.code)) return false
    }
    return true
  }
  return false
}

/**
 * Runs `attempt(n)` until it succeeds, fails for good, or `retries` retries are spent; between attempts
 * `pause(ms)` waits (and must reject when the caller aborts meanwhile). `onRetry` is told of each retry.
 * @template T
 * @param {(attemptNumber: number) => Promise<T>} attempt
 * @param {{ retries: number, pause: (ms: number) => Promise<void>, onRetry?: (error: unknown) => void }} policy
 * @returns {Promise<T>}
 */
export function withRetries(attempt, { retries, pause, onRetry }) {
  // A chain rather than a loop of awaits (nor an async function's promise around it): a dataset holds
  // thousands of requests in flight, and a suspended frame each would hold its registers and context as long.
  /** @type {(n: number) => Promise<T>} */
  const from = (n) => attemptNow(attempt, n).catch((error) => {
    if (!shouldRetry(error, n, retries)) throw error
    onRetry?.(error)
    return pause(retryDelayMs(n)).then(() => from(n + 1))
  })
  return from(0)
}

/**
 * Whether attempt number `n` (0-based) that failed with `error` is worth another: a transient failure, with
 * retries left of `retries`.
 * @param {unknown} error
 * @param {number} n
 * @param {number} retries
 */
export function shouldRetry(error, n, retries) {
  return n < retries && isTransientFailure(error)
}

/**
 * `attempt(n)`, a synchronous throw as a rejection.
 * @template T
 * @param {(attemptNumber: number) => Promise<T>} attempt
 * @param {number} n
 * @returns {Promise<T>}
 */
function attemptNow(attempt, n) {
  try {
    return Promise.resolve(attempt(n))
  } catch (error) {
    return Promise.reject(error)
  }
}

/**
 * Resolves after `ms`, or rejects as soon as the operation is aborted (its timer cleared).
 * @param {number} ms
 * @param {import('./shared.js').Operation} operation
 */
export function sleepWithin(ms, operation) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const slept = new Promise((resolve) => { timer = setTimeout(resolve, ms) })
  return operation.race(slept).finally(() => clearTimeout(timer))
}
