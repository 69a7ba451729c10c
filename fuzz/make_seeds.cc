// Writes seed inputs for every harness using only this project's own encoders (EncodeBloomHeader, the
// Thrift Writer, SbbfView) — no third-party bytes. Footers from real writers are added separately by
// fuzz/footer-seeds.mjs (DuckDB and hyparquet-writer write them at fuzz-setup time).
//   pb_fuzz_seeds <output dir>   → <output dir>/<harness>/<seed name>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bloom_header.h"
#include "hasher.h"
#include "sbbf.h"
#include "thrift_compact.h"

using namespace pb;
using thrift::WireType;

namespace {

std::filesystem::path g_out;

class Bytes {
 public:
  Bytes& U8(uint32_t v) { return Raw(&v, 1); }
  Bytes& U16(uint32_t v) { return Raw(&v, 2); }
  Bytes& U32(uint32_t v) { return Raw(&v, 4); }
  Bytes& U64(uint64_t v) { return Raw(&v, 8); }
  Bytes& Append(const std::vector<uint8_t>& more) { return Raw(more.data(), more.size()); }
  Bytes& Text(const std::string& s) { return Raw(s.data(), s.size()); }
  Bytes& Raw(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    bytes.insert(bytes.end(), b, b + n);
    return *this;
  }
  std::vector<uint8_t> bytes;
};

void Save(const std::string& harness, const std::string& name, const std::vector<uint8_t>& bytes) {
  const auto dir = g_out / harness;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                     static_cast<std::streamsize>(bytes.size()));
}

std::vector<uint8_t> Header(int32_t num_bytes) {
  uint8_t buf[kMaxEncodedHeaderLength];
  const size_t n = EncodeBloomHeader(num_bytes, buf, sizeof buf);
  return {buf, buf + n};
}

// A Thrift compact writer with the field kinds the footer needs, on top of thrift::Writer.
class Compact {
 public:
  Compact() : w_(buf_, sizeof buf_) {}
  Compact& I32(int16_t id, int32_t v) {
    w_.WriteI32Field(id, v, &last());
    return *this;
  }
  Compact& I64(int16_t id, int64_t v) {
    w_.WriteFieldHeader(WireType::kI64, id, &last());
    w_.WriteVarint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
    return *this;
  }
  Compact& Byte(int16_t id, uint8_t v) {
    w_.WriteFieldHeader(WireType::kByte, id, &last());
    w_.WriteByte(v);
    return *this;
  }
  Compact& Bool(int16_t id, bool v) {
    w_.WriteFieldHeader(v ? WireType::kBoolTrue : WireType::kBoolFalse, id, &last());
    return *this;
  }
  Compact& String(int16_t id, const std::string& s) {
    w_.WriteFieldHeader(WireType::kBinary, id, &last());
    w_.WriteVarint(s.size());
    for (char c : s) w_.WriteByte(static_cast<uint8_t>(c));
    return *this;
  }
  Compact& Begin(int16_t id) {  // a struct field
    w_.WriteFieldHeader(WireType::kStruct, id, &last());
    ids_.push_back(0);
    return *this;
  }
  Compact& BeginList(int16_t id, WireType elem, uint32_t n) {
    w_.WriteFieldHeader(WireType::kList, id, &last());
    ListHeader(elem, n);
    return *this;
  }
  Compact& ListHeader(WireType elem, uint32_t n) {
    if (n < 15) {
      w_.WriteByte(static_cast<uint8_t>(n << 4 | static_cast<uint8_t>(elem)));
    } else {
      w_.WriteByte(0xf0 | static_cast<uint8_t>(elem));
      w_.WriteVarint(n);
    }
    return *this;
  }
  Compact& Element() {  // a struct element of a list
    ids_.push_back(0);
    return *this;
  }
  Compact& End() {
    w_.WriteStop();
    ids_.pop_back();
    return *this;
  }
  Compact& Varint(uint64_t v) {
    w_.WriteVarint(v);
    return *this;
  }
  std::vector<uint8_t> Finish() {
    w_.WriteStop();
    return {buf_, buf_ + w_.size()};
  }

 private:
  int16_t& last() { return ids_.back(); }
  uint8_t buf_[1 << 16];
  thrift::Writer w_;
  std::vector<int16_t> ids_{0};
};

void BloomHeaderSeeds() {
  for (int32_t n : {32, 64, 1024, 2048, 4096, 1 << 20, 128 << 20, (128 << 20) + 32, 0, -32, 33, 48, INT32_MAX}) {
    Save("fuzz_bloom_header", "encoded-" + std::to_string(n), Header(n));
  }
  auto full = Header(1024);
  Save("fuzz_bloom_header", "truncated-1024", {full.begin(), full.begin() + static_cast<std::ptrdiff_t>(full.size() / 2)});
  // Fields in other shapes: an unknown trailing field, an empty union, an unknown union member, a wrong type.
  Save("fuzz_bloom_header", "unknown-field",
       Compact().I32(1, 64).Begin(2).Begin(1).End().End().Begin(3).Begin(1).End().End().Begin(4).Begin(1).End().End()
           .String(5, "future").Finish());
  Save("fuzz_bloom_header", "empty-union",
       Compact().I32(1, 64).Begin(2).End().Begin(3).Begin(1).End().End().Begin(4).Begin(1).End().End().Finish());
  Save("fuzz_bloom_header", "unknown-member",
       Compact().I32(1, 64).Begin(2).Begin(2).End().End().Begin(3).Begin(1).End().End().Begin(4).Begin(1).End().End()
           .Finish());
  Save("fuzz_bloom_header", "wrong-type", Compact().I64(1, 64).Finish());
  // The pre-release layout: numBytes, algorithm, hash as little-endian int32, then the bitset.
  Bytes legacy;
  legacy.U32(32).U32(0).U32(0);
  legacy.bytes.resize(12 + 32, 0x11);
  Save("fuzz_bloom_header", "legacy", legacy.bytes);
}

std::vector<uint8_t> FilterWith(uint32_t num_bytes, const std::vector<std::string>& values) {
  std::vector<uint32_t> words(num_bytes / 4);
  SbbfView view(words.data(), num_bytes);
  for (const auto& v : values) view.Insert(HashBytes(v.data(), v.size()));
  std::vector<uint8_t> out(num_bytes);
  std::memcpy(out.data(), words.data(), num_bytes);
  return out;
}

void BitsetSeeds() {
  const std::vector<std::string> values = {"", "a", "hello", "parquet", "bloom filter", "2024-01-02"};
  for (uint32_t num_bytes : {32u, 64u, 256u, 1024u}) {
    Bytes seed;
    seed.Append(Header(static_cast<int32_t>(num_bytes))).Append(FilterWith(num_bytes, values));
    for (const auto& v : values) seed.U8(static_cast<uint32_t>(v.size())).Text(v);
    seed.U8(6).Text("absent");
    Save("fuzz_bitset_load", "filter-" + std::to_string(num_bytes), seed.bytes);
    Save("fuzz_analyze_bitset", "filter-" + std::to_string(num_bytes), FilterWith(num_bytes, values));
  }
  Save("fuzz_analyze_bitset", "empty-64", std::vector<uint8_t>(64, 0));
  Save("fuzz_analyze_bitset", "full-64", std::vector<uint8_t>(64, 0xff));
  std::vector<uint8_t> repeated = FilterWith(32, {"x"});
  repeated.insert(repeated.end(), repeated.begin(), repeated.end());
  Save("fuzz_analyze_bitset", "identical-blocks", repeated);
}

void ThriftSeeds() {
  auto skip = [](const std::string& name, WireType type, const std::vector<uint8_t>& value) {
    Bytes seed;
    seed.U8(0).U8(static_cast<uint8_t>(type)).Append(value);
    Save("fuzz_thrift_skip", name, seed.bytes);
  };
  skip("struct-header", WireType::kStruct, Header(1024));
  skip("i64", WireType::kI64, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01});
  skip("binary", WireType::kBinary, {5, 'b', 'l', 'o', 'o', 'm'});
  skip("double", WireType::kDouble, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f});
  skip("list-i32", WireType::kList, {0x35, 2, 4, 6});
  skip("list-long", WireType::kList, {0xf1, 20, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
  skip("map", WireType::kMap, {2, 0x85, 1, 'k', 2, 3, 'l', 4});
  std::vector<uint8_t> deep;
  for (int i = 0; i < 40; ++i) deep.push_back(0x1c);  // field 1, struct, nested 40 deep
  skip("too-deep", WireType::kStruct, deep);
  skip("huge-count", WireType::kList, {0xf5, 0xff, 0xff, 0xff, 0xff, 0x0f});
  Save("fuzz_thrift_skip", "writer-program", {1, 5, 1, 0, 1, 2, 2, 4, 'a', 'b', 'c', 'd', 3, 3, 2, 1, 4, 5, 1, 2, 3});
}

// A FileMetaData with the shapes probing relies on: nested schema, logical types, two row groups whose
// chunks carry bloom filter offsets (one without a length, as older writers emit).
std::vector<uint8_t> Footer(int row_groups, bool with_lengths, bool encrypted) {
  Compact c;
  c.I32(1, 2);
  c.BeginList(2, WireType::kStruct, 5);
  c.Element().String(4, "schema").I32(5, 4).End();
  c.Element().I32(1, 2).I32(3, 0).String(4, "id").Begin(10).Begin(10).Byte(1, 64).Bool(2, true).End().End().End();
  c.Element().I32(1, 6).I32(3, 1).String(4, "name").I32(6, 0).Begin(10).Begin(1).End().End().End();
  c.Element().I32(1, 2).I32(3, 1).String(4, "ts").Begin(10).Begin(8).Bool(1, true).Begin(2).Begin(2).End().End().End()
      .End().End();
  c.Element().I32(1, 7).I32(2, 16).I32(3, 1).String(4, "amount").I32(6, 5).I32(7, 2).I32(8, 20).Begin(10).Begin(5)
      .I32(1, 2).I32(2, 20).End().End().End();
  c.I64(3, 1000L * row_groups);
  c.BeginList(4, WireType::kStruct, static_cast<uint32_t>(row_groups));
  int64_t offset = 4;
  for (int g = 0; g < row_groups; ++g) {
    c.Element().BeginList(1, WireType::kStruct, 4);
    for (int col = 0; col < 4; ++col) {
      c.Element().I64(2, offset).Begin(3).I32(1, col == 1 ? 6 : col == 3 ? 7 : 2);
      c.BeginList(2, WireType::kI32, 2).Varint(0).Varint(16);
      c.BeginList(3, WireType::kBinary, 1).Varint(2).Varint('c').Varint('0' + col);  // path_in_schema
      c.I32(4, 1).I64(5, 1000).I64(6, 4000).I64(7, 3000).I64(9, offset);
      if (col != 2) {
        c.I64(14, offset + 3000);
        if (with_lengths) c.I32(15, 1024 + 22);
      }
      c.End();
      if (encrypted && col == 3) c.Begin(8).Begin(1).End().End().String(9, "sealed");
      c.End();
      offset += 4100;
    }
    c.I64(2, 16000).I64(3, 1000).End();
  }
  c.String(6, "parquet-bloom seed writer");
  if (encrypted) c.Begin(8).Begin(1).End().End();
  return c.Finish();
}

void FooterSeeds() {
  Save("fuzz_file_metadata", "two-row-groups", Footer(2, true, false));
  Save("fuzz_file_metadata", "no-lengths", Footer(1, false, false));
  Save("fuzz_file_metadata", "no-row-groups", Footer(0, true, false));
  Save("fuzz_file_metadata", "encrypted-columns", Footer(1, true, true));
}

void BatchSeeds() {
  // One dense and one spaced batch per physical type, in fuzz_batch_ops.cc's input layout.
  for (uint32_t type = 0; type < 8; ++type) {
    for (bool spaced : {false, true}) {
      const uint32_t count = 9;
      const uint32_t width = type == 0 || type == 6 ? 0 : type == 1 || type == 4 ? 4 : type == 3 ? 12 : type == 7 ? 5 : 8;
      Bytes seed;
      seed.U8(type + 1).U8(spaced ? 1 : 0).U16(count).U8(2).U8(type == 7 ? 5 : 0).U8(type == 0 ? 3 : 0).U8(spaced ? 3 : 0);
      if (type == 6) {
        for (uint32_t i = 0; i <= count; ++i) seed.U8(i % 4);  // value lengths
      }
      if (spaced) seed.U16(0xb6db);  // (3 + 9 + 7) / 8 = 2 validity bytes
      const size_t values = type == 0 ? 2 : type == 6 ? 14 : width * count;
      for (size_t i = 0; i < values; ++i) seed.U8(static_cast<uint32_t>(i * 37 + type));
      Save("fuzz_batch_ops", "type" + std::to_string(type) + (spaced ? "-spaced" : "-dense"), seed.bytes);
    }
  }
  Bytes arrays;
  arrays.U16(6).U8(1).U16(1).U16(4).U8(3);
  for (uint32_t len : {0, 1, 5, 0, 7, 2}) arrays.U8(len);
  arrays.Text("0123456789abcdefghijklmnopqrstuvwxyz");
  Save("fuzz_hash_byte_arrays", "sliced", arrays.bytes);
  Bytes raw;
  raw.U16(3).U8(2).U16(0).U16(3).U32(0).U32(4).U32(2).U32(8).Text("abcdefgh");
  Save("fuzz_hash_byte_arrays", "decreasing", raw.bytes);
}

void PoolSeeds() {
  Bytes seq;
  seq.U32(1 << 20);
  seq.U8(0).U8(4).U16(1000).U8(0).U8(4).U16(4096).U8(2).U8(0).U8(3).U8(0).U8(0).U8(4).U16(1000);
  seq.U8(4).U8(0).U8(1).U8(5).U8(1).U8(5).U8(0).U8(6).U32(2048).U8(2).U8(0).U8(3).U8(0).U8(7).U8(3).U8(1);
  Save("fuzz_scratch_pool", "budget-and-reuse", seq.bytes);
  Bytes big;
  big.U32(8 << 20).U8(0).U8(1).U8(0).U8(0).U8(2).U8(7).U8(0).U8(3).U16(0xffff).U8(4).U8(2).U8(0).U8(3).U8(0);
  Save("fuzz_scratch_pool", "oversized", big.bytes);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output dir>\n", argv[0]);
    return 2;
  }
  g_out = argv[1];
  BloomHeaderSeeds();
  BitsetSeeds();
  ThriftSeeds();
  FooterSeeds();
  BatchSeeds();
  PoolSeeds();
  return 0;
}
