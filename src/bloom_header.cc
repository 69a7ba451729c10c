// BloomFilterHeader decode/encode (parquet.thrift: BloomFilterHeader and its three unions).
#include "bloom_header.h"

#include <cstring>

#include "sbbf.h"
#include "thrift_compact.h"

namespace pb {

namespace {

using thrift::Reader;
using thrift::WireType;

// Reads one of BloomFilterAlgorithm / BloomFilterHash / BloomFilterCompression. Each is a union whose
// only defined member is field 1, an empty struct. Returns the member id (0 if the union is empty).
bool ReadUnion(Reader* r, int16_t* member, bool* unknown_member) {
  *member = 0;
  *unknown_member = false;
  return thrift::ForEachField(r, [&](WireType type, int16_t id) {
    if (id == 1 && type == WireType::kStruct) {
      *member = 1;
    } else if (*member == 0) {
      *member = id;
      *unknown_member = true;
    }
    return r->Skip(type);
  });
}

// The pre-release format wrote numBytes, algorithm and hash as little-endian int32 (parquet-mr before
// 1.12). Recognising it turns "garbage" into an actionable "unsupported legacy filter". The 12-byte
// prefix decides: readers that fetch only a header's worth of bytes must recognise it too.
bool LooksLikeLegacyHeader(const uint8_t* data, size_t size) {
  if (size < 12) return false;
  int32_t fields[3];
  std::memcpy(fields, data, sizeof fields);
  return IsValidNumBytes(fields[0]) && fields[1] >= 0 && fields[1] < 16 && fields[2] >= 0 && fields[2] < 16;
}

Status Refuse(BloomHeader* out, Status status, HeaderProblem problem) {
  out->problem = problem;
  return status;
}

}  // namespace

Status DecodeBloomHeader(const uint8_t* data, size_t size, BloomHeader* out) {
  *out = BloomHeader{};
  if (data == nullptr && size != 0) return Status::kInvalidArgument;
  Reader r(data, size);
  bool have_num_bytes = false, have_algorithm = false, have_hash = false, have_compression = false;
  bool empty_union = false, unknown_union = false, wrong_type = false;
  int16_t last_id = 0;
  for (;;) {
    WireType type;
    int16_t id;
    if (!r.ReadFieldHeader(&type, &id, &last_id)) break;
    if (type == WireType::kStop) break;
    if (id == 1 && type == WireType::kI32) {
      if (!r.ReadI32(&out->num_bytes)) break;
      have_num_bytes = true;
    } else if (id >= 2 && id <= 4 && type == WireType::kStruct) {
      int16_t member;
      bool unknown;
      if (!ReadUnion(&r, &member, &unknown)) break;
      int16_t* slot = id == 2 ? &out->algorithm : id == 3 ? &out->hash : &out->compression;
      bool* seen = id == 2 ? &have_algorithm : id == 3 ? &have_hash : &have_compression;
      *slot = member;
      *seen = true;
      empty_union |= member == 0;
      unknown_union |= unknown;
    } else {
      wrong_type |= id >= 1 && id <= 4;  // a known field id carrying the wrong wire type
      if (!r.Skip(type)) break;          // unknown fields are skipped, as Thrift requires
    }
  }
  out->header_length = static_cast<uint32_t>(r.position());
  if (r.failed()) {
    // Running off the end is truncation (also inside a binary or double); anything else is an encoding error.
    return Refuse(out, Status::kMalformed, r.truncated() ? HeaderProblem::kTruncated : HeaderProblem::kBadEncoding);
  }
  if (wrong_type) return Refuse(out, Status::kMalformed, HeaderProblem::kWrongFieldType);
  if (!have_num_bytes) {
    if (LooksLikeLegacyHeader(data, size)) return Refuse(out, Status::kUnsupported, HeaderProblem::kLegacyFormat);
    return Refuse(out, Status::kMalformed, HeaderProblem::kMissingNumBytes);
  }
  if (!have_algorithm) return Refuse(out, Status::kMalformed, HeaderProblem::kMissingAlgorithm);
  if (!have_hash) return Refuse(out, Status::kMalformed, HeaderProblem::kMissingHash);
  if (!have_compression) return Refuse(out, Status::kMalformed, HeaderProblem::kMissingCompression);
  if (out->num_bytes <= 0 || out->num_bytes % static_cast<int32_t>(kBytesPerBlock) != 0) {
    return Refuse(out, Status::kMalformed, HeaderProblem::kBadNumBytes);
  }
  if (static_cast<uint32_t>(out->num_bytes) > kMaxNumBytes) {
    return Refuse(out, Status::kLimitExceeded, HeaderProblem::kNumBytesTooLarge);
  }
  if (empty_union) return Refuse(out, Status::kUnsupported, HeaderProblem::kEmptyUnion);
  if (unknown_union) return Refuse(out, Status::kUnsupported, HeaderProblem::kUnknownUnion);
  return Status::kOk;
}

size_t EncodeBloomHeader(int32_t num_bytes, uint8_t* out, size_t capacity) {
  thrift::Writer w(out, capacity);
  int16_t last_id = 0;
  w.WriteI32Field(1, num_bytes, &last_id);
  // Fields 2..4: each a union holding member 1, an empty struct.
  for (int16_t id = 2; id <= 4; ++id) {
    w.WriteFieldHeader(WireType::kStruct, id, &last_id);
    int16_t inner_last = 0;
    w.WriteFieldHeader(WireType::kStruct, 1, &inner_last);
    w.WriteStop();  // end of the empty member struct
    w.WriteStop();  // end of the union
  }
  w.WriteStop();
  return w.overflowed() ? 0 : w.size();
}

size_t StandardHeaderLength(int32_t num_bytes) {
  uint8_t scratch[kMaxEncodedHeaderLength];
  return EncodeBloomHeader(num_bytes, scratch, sizeof scratch);
}

}  // namespace pb
