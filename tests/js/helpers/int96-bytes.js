// The INT96 bytes writers store for an instant (the tests' own encoder, from the format's definition, not the code's):
// nanoseconds of the day (LE int64), then the Julian day (LE int32).
const MICROS_PER_DAY = 86_400_000_000n
const UNIX_EPOCH_JULIAN_DAY = 2_440_588n

/**
 * A timestamp (µs since the epoch) as INT96 bytes. `spark`: as Spark computes them, the Julian microseconds in int64 and
 * divided truncating: past year ~287,566 they wrap (int96_from_spark.parquet's last value).
 * @param {bigint} micros
 * @param {{ spark?: boolean }} [options]
 */
export function int96Bytes(micros, { spark = false } = {}) {
  let julian = micros + UNIX_EPOCH_JULIAN_DAY * MICROS_PER_DAY
  if (spark) julian = BigInt.asIntN(64, julian)
  let day = julian / MICROS_PER_DAY
  if (!spark && julian % MICROS_PER_DAY < 0n) day -= 1n
  const bytes = new Uint8Array(12)
  const view = new DataView(bytes.buffer)
  view.setBigInt64(0, (julian - day * MICROS_PER_DAY) * 1000n, true)
  view.setInt32(8, Number(day), true)
  return bytes
}
