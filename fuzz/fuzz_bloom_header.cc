// Fuzzes DecodeBloomHeader (the first bytes read at a column's bloom_filter_offset): it must never read
// past the input, must report a header length inside it, and an accepted header must be exactly what
// our own encoder writes for that size, self-delimiting, and refused as truncated when cut short.
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "bloom_header.h"
#include "fuzz_input.h"
#include "sbbf.h"

using namespace pb;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  BloomHeader header;
  const Status status = DecodeBloomHeader(data, size, &header);
  FUZZ_CHECK(header.header_length <= size);
  FUZZ_CHECK(ok(status) == (header.problem == HeaderProblem::kNone));
  if (!ok(status)) {
    const bool truncated = header.problem == HeaderProblem::kTruncated;
    FUZZ_CHECK(!truncated || status == Status::kMalformed);
    FUZZ_CHECK(status != Status::kInvalidArgument);
    return 0;
  }

  FUZZ_CHECK(IsValidNumBytes(header.num_bytes));
  FUZZ_CHECK(header.algorithm == 1 && header.hash == 1 && header.compression == 1);
  FUZZ_CHECK(header.header_length >= 2);

  // The header ends where decoding said: the same bytes without what follows decode identically.
  fuzz::ExactBuffer exact(data, header.header_length);
  BloomHeader again;
  FUZZ_CHECK(ok(DecodeBloomHeader(exact.data(), exact.size(), &again)));
  FUZZ_CHECK(again.num_bytes == header.num_bytes && again.header_length == header.header_length);

  // Any strict prefix of an accepted header is truncation, never a different valid header.
  for (size_t cut : {size_t{0}, size_t{header.header_length - 1}, size_t{header.header_length / 2}}) {
    fuzz::ExactBuffer prefix(data, cut);
    BloomHeader partial;
    FUZZ_CHECK(DecodeBloomHeader(prefix.data(), prefix.size(), &partial) == Status::kMalformed);
    FUZZ_CHECK(partial.problem == HeaderProblem::kTruncated);
  }

  // Our encoder's form of the same header is accepted with the same size.
  uint8_t encoded[kMaxEncodedHeaderLength];
  const size_t n = EncodeBloomHeader(header.num_bytes, encoded, sizeof encoded);
  FUZZ_CHECK(n != 0 && n == StandardHeaderLength(header.num_bytes));
  BloomHeader reencoded;
  FUZZ_CHECK(ok(DecodeBloomHeader(encoded, n, &reencoded)));
  FUZZ_CHECK(reencoded.num_bytes == header.num_bytes && reencoded.header_length == n);
  return 0;
}
