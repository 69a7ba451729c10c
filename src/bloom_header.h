// BloomFilterHeader (parquet.thrift; BloomFilter.md "File Format") decode and encode.
// Decoding never trusts the input: truncation is kMalformed, empty or unknown unions are kUnsupported.
#pragma once

#include <cstddef>
#include <cstdint>

#include "status.h"

namespace pb {

// Why a header was refused; lets callers name the exact problem (and inspect tools warn about it).
enum class HeaderProblem : int32_t {
  kNone = 0,
  kTruncated = 1,         // input ended inside the header
  kBadEncoding = 2,       // not valid Thrift compact (bad varint, unknown wire type, too deep)
  kMissingNumBytes = 3,
  kMissingAlgorithm = 4,
  kMissingHash = 5,
  kMissingCompression = 6,
  kBadNumBytes = 7,        // <= 0 or not a multiple of 32
  kNumBytesTooLarge = 8,   // over the 128 MiB ceiling
  kEmptyUnion = 9,         // algorithm/hash/compression union with no member set (some writers emit these)
  kUnknownUnion = 10,      // a union member this reader does not implement
  kLegacyFormat = 11,      // the pre-release non-Thrift header (numBytes, algorithm, hash as raw int32)
  kWrongFieldType = 12,    // a known field with an unexpected wire type
};

// Union members, as the union's field id; 0 = absent/empty.
struct BloomHeader {
  int32_t num_bytes = 0;
  int16_t algorithm = 0;     // 1 = BLOCK (SplitBlockAlgorithm)
  int16_t hash = 0;          // 1 = XXHASH
  int16_t compression = 0;   // 1 = UNCOMPRESSED
  uint32_t header_length = 0;  // bytes the header occupies; the bitset starts right after
  HeaderProblem problem = HeaderProblem::kNone;
};

// Decodes a header at the start of `data`. Fields of the result are filled as far as decoding got, so
// an unsupported header still reports num_bytes and header_length for diagnostics.
Status DecodeBloomHeader(const uint8_t* data, size_t size, BloomHeader* out);

// Encodes {num_bytes, BLOCK, XXHASH, UNCOMPRESSED}. Returns the bytes written, 0 if capacity is short.
constexpr size_t kMaxEncodedHeaderLength = 32;
size_t EncodeBloomHeader(int32_t num_bytes, uint8_t* out, size_t capacity);

// Length of the header EncodeBloomHeader writes for num_bytes (what the standard writers emit too).
size_t StandardHeaderLength(int32_t num_bytes);

}  // namespace pb
