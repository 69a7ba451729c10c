// Which bytes a Delta table index's record was built from (docs/table-index.md "Tied to the table"): the
// log object at the recorded version — its commit, or the checkpoint the build started from when that
// commit was gone — named, sized, and hashed over its first 4 KiB. A commit's first line is usually its
// commitInfo with a timestamp, and log objects never change once written: another table at the same
// location and version (re-created, or the index of another table) has another identity.

/** How much of the log object is hashed: one range read, read beside the commits after the recorded version. */
export const LOG_IDENTITY_BYTES = 4096

const FNV_OFFSET = 0xcbf29ce484222325n
const FNV_PRIME = 0x100000001b3n
const MASK = 0xffffffffffffffffn

/** 64-bit FNV-1a of the bytes, as 16 hex digits (a non-cryptographic fingerprint: the size is compared too). */
/** @param {Uint8Array} bytes */
function fnv1a64(bytes) {
  let h = FNV_OFFSET
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK
  return h.toString(16).padStart(16, '0')
}

/**
 * @typedef {{ name: string, size: number, hash: string }} LogIdentity
 *   name: the object's name in `_delta_log/`; size: its total bytes; hash: FNV-1a 64 of its first LOG_IDENTITY_BYTES, hex
 */

/**
 * @param {string} name
 * @param {Uint8Array} start the object's first bytes (at least LOG_IDENTITY_BYTES of them, or all of it)
 * @param {number} size its total size
 * @returns {LogIdentity}
 */
export function logIdentity(name, start, size) {
  return { name, size, hash: fnv1a64(start.subarray(0, LOG_IDENTITY_BYTES)) }
}

/**
 * Whether an object read now is the one recorded (false when it is gone).
 * @param {LogIdentity} recorded
 * @param {LogIdentity | null | undefined} found
 */
export function sameLogIdentity(recorded, found) {
  return !!found && recorded.name === found.name && recorded.size === found.size && recorded.hash === found.hash
}
