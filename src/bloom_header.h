// BloomFilterHeader (parquet.thrift; BloomFilter.md "File Format") decode and encode.
// Decoding never trusts the input: truncation is kMalformed, empty or unknown unions are kUnsupported.
#pragma once

#include <cstddef>
#include <cstdint>

#include "abi.h"
#include "status.h"

namespace pb {

// Why a header was refused; lets callers name the exact problem (and inspect tools warn about it).
// Declared through the ABI (src/abi.h): js/indexes/bloom-header.js names each problem.
#define PB_HEADER_PROBLEM_VALUES(X)                                                                       \
  X(kNone, 0)                                                                                             \
  X(kTruncated, 1)           /* input ended inside the header */                                          \
  X(kBadEncoding, 2)         /* not valid Thrift compact (bad varint, unknown wire type, too deep) */     \
  X(kMissingNumBytes, 3)                                                                                  \
  X(kMissingAlgorithm, 4)                                                                                 \
  X(kMissingHash, 5)                                                                                      \
  X(kMissingCompression, 6)                                                                               \
  X(kBadNumBytes, 7)         /* <= 0 or not a multiple of 32 */                                           \
  X(kNumBytesTooLarge, 8)    /* over the 128 MiB ceiling */                                               \
  X(kEmptyUnion, 9)          /* algorithm/hash/compression union with no member set (some writers) */     \
  X(kUnknownUnion, 10)       /* a union member this reader does not implement */                          \
  X(kLegacyFormat, 11)       /* the pre-release non-Thrift header (numBytes, algorithm, hash as int32) */ \
  X(kWrongFieldType, 12)     /* a known field with an unexpected wire type */
enum class HeaderProblem : int32_t { PB_HEADER_PROBLEM_VALUES(PB_ABI_DECLARE_ENUMERATOR) };
PB_ABI_DESCRIBE_ENUM(HeaderProblem, PB_HEADER_PROBLEM_VALUES)

// Union members, as the union's field id; 0 = absent/empty. JS reads it whole (js/indexes/bloom-header.js).
#define PB_BLOOM_HEADER_FIELDS(X)                                                                 \
  X(int32_t, num_bytes, 0)                                                                        \
  X(int16_t, algorithm, 0)     /* 1 = BLOCK (SplitBlockAlgorithm) */                              \
  X(int16_t, hash, 0)          /* 1 = XXHASH */                                                   \
  X(int16_t, compression, 0)   /* 1 = UNCOMPRESSED */                                             \
  X(uint32_t, header_length, 0) /* bytes the header occupies; the bitset starts right after */    \
  X(HeaderProblem, problem, HeaderProblem::kNone)
struct BloomHeader {
  PB_BLOOM_HEADER_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(BloomHeader, PB_BLOOM_HEADER_FIELDS)

// Decodes a header at the start of `data`. Fields of the result are filled as far as decoding got, so
// an unsupported header still reports num_bytes and header_length for diagnostics.
Status DecodeBloomHeader(const uint8_t* data, size_t size, BloomHeader* out);

// Encodes {num_bytes, BLOCK, XXHASH, UNCOMPRESSED}. Returns the bytes written, 0 if capacity is short.
constexpr size_t kMaxEncodedHeaderLength = 32;
size_t EncodeBloomHeader(int32_t num_bytes, uint8_t* out, size_t capacity);

// Length of the header EncodeBloomHeader writes for num_bytes (what the standard writers emit too).
size_t StandardHeaderLength(int32_t num_bytes);

}  // namespace pb
