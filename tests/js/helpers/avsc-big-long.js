// avsc's long type yielding bigints (ids and snapshot ids pass 2^53), for the tests that read or write Avro
// with avsc as an oracle: written here apart from js/table/avro.js's, so the oracle shares no code with it.
import avsc from 'avsc'

/** The 8 bytes avsc hands over, little-endian, as a signed 64-bit bigint (and back). */
export const bigLong = avsc.types.LongType.__with({
  fromBuffer: (buf) => BigInt.asIntN(64, BigInt(`0x${Buffer.from(buf).reverse().toString('hex')}`)),
  toBuffer: (n) => Buffer.from(BigInt.asUintN(64, BigInt(n)).toString(16).padStart(16, '0'), 'hex').reverse(),
  fromJSON: (text) => BigInt(text),
  toJSON: (n) => Number(n),
  isValid: (n) => typeof n === 'bigint',
  compare: (a, b) => Number(a > b) - Number(a < b),
})
