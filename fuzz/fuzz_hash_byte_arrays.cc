// Fuzzes BYTE_ARRAY hashing through Arrow-style offsets: ValidateBatch must refuse any offsets that
// would leave the data buffer (negative, decreasing, past the end), and accepted ones must hash every
// value, and every sub-range of slots (sliced arrays, chunk boundaries), like one HashBytes call each.
//
// Input: count(u16) mode(u8) begin(u16) end(u16) offsets: count+1 × (u8 delta | i32 raw) data...
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_input.h"
#include "hasher.h"

using namespace pb;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const uint32_t count = in.U16() % 4096;
  const uint8_t mode = in.U8();
  uint32_t begin = in.U16(), end = in.U16();

  fuzz::ExactBuffer offsets_buffer((size_t{count} + 1) * sizeof(int32_t));
  auto* offsets = reinterpret_cast<int32_t*>(offsets_buffer.data());
  int32_t next = (mode & 1) ? in.U8() : 0;  // a slice of a larger array starts past 0
  for (uint32_t i = 0; i <= count; ++i) {
    if (mode & 2) {
      offsets[i] = static_cast<int32_t>(in.U32());
    } else {
      offsets[i] = next;
      next += in.U8() % 24;
    }
  }
  size_t data_length;
  const uint8_t* data_in = in.Bytes(in.remaining(), &data_length);
  fuzz::ExactBuffer values(data_in, data_length);

  ValueBatch b;
  b.type = PhysicalType::kByteArray;
  b.count = count;
  b.values = values.data();
  b.values_length = data_length;
  b.offsets = offsets;
  const Status status = ValidateBatch(b);
  if (!ok(status)) {
    FUZZ_CHECK(status == Status::kMalformed);
    return 0;
  }
  for (uint32_t i = 0; i < count; ++i) {
    FUZZ_CHECK(offsets[i] >= 0 && offsets[i] <= offsets[i + 1]);
    FUZZ_CHECK(static_cast<uint64_t>(offsets[i + 1]) <= data_length);
  }

  std::vector<uint64_t> hashes(count);
  HashByteArrays(offsets, values.data(), count, hashes.data());
  for (uint32_t i = 0; i < count; ++i) {
    FUZZ_CHECK(hashes[i] == HashBytes(values.data() + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])));
  }

  if (count == 0) return 0;
  begin %= count + 1;
  end = begin + end % (count - begin + 1);
  std::vector<uint64_t> range(count);
  FUZZ_CHECK(HashSlots(b, begin, end, range.data()) == end - begin);
  for (uint32_t i = begin; i < end; ++i) FUZZ_CHECK(range[i - begin] == hashes[i]);
  return 0;
}
