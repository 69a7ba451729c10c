// Thrift compact protocol primitives: the exact bytes the spec (thrift-compact-protocol.md) prescribes,
// and a reader that stays inside its input and its depth limit whatever the bytes say.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

#include "thrift_compact.h"

namespace pb::thrift {
namespace {

using Bytes = std::vector<uint8_t>;

// Zigzag as the spec defines it, kept separate from the implementation's own helper.
uint64_t SpecZigzag64(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

Bytes WriteVarintBytes(uint64_t v) {
  Bytes out(16, 0);
  Writer w(out.data(), out.size());
  w.WriteVarint(v);
  EXPECT_FALSE(w.overflowed());
  out.resize(w.size());
  return out;
}

// ---- Varints ------------------------------------------------------------------------------------

TEST(ThriftVarint, EncodesLittleEndianBase128) {
  EXPECT_EQ(WriteVarintBytes(0), (Bytes{0x00}));
  EXPECT_EQ(WriteVarintBytes(1), (Bytes{0x01}));
  EXPECT_EQ(WriteVarintBytes(127), (Bytes{0x7f}));
  EXPECT_EQ(WriteVarintBytes(128), (Bytes{0x80, 0x01}));
  EXPECT_EQ(WriteVarintBytes(300), (Bytes{0xac, 0x02}));
  EXPECT_EQ(WriteVarintBytes(16384), (Bytes{0x80, 0x80, 0x01}));
  EXPECT_EQ(WriteVarintBytes(0xffffffffULL), (Bytes{0xff, 0xff, 0xff, 0xff, 0x0f}));
  EXPECT_EQ(WriteVarintBytes(uint64_t{1} << 63), (Bytes{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}));
  EXPECT_EQ(WriteVarintBytes(std::numeric_limits<uint64_t>::max()),
            (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
}

TEST(ThriftVarint, RoundTripsAcrossEveryLength) {
  std::vector<uint64_t> values = {0, std::numeric_limits<uint64_t>::max()};
  for (int bits = 1; bits < 64; ++bits) {
    values.push_back((uint64_t{1} << bits) - 1);
    values.push_back(uint64_t{1} << bits);
  }
  for (uint64_t v : values) {
    const Bytes bytes = WriteVarintBytes(v);
    EXPECT_LE(bytes.size(), 10u);
    Reader r(bytes.data(), bytes.size());
    uint64_t back = 0;
    ASSERT_TRUE(r.ReadVarint(&back)) << v;
    EXPECT_EQ(back, v);
    EXPECT_EQ(r.position(), bytes.size());
  }
}

TEST(ThriftVarint, TenthByteMayOnlyCarryTheTopBit) {
  Bytes bytes(9, 0x80);
  bytes.push_back(0x01);
  uint64_t v = 0;
  Reader top_bit(bytes.data(), bytes.size());
  EXPECT_TRUE(top_bit.ReadVarint(&v));
  EXPECT_EQ(v, uint64_t{1} << 63);

  bytes.back() = 0x02;  // would be bit 64
  Reader overflow(bytes.data(), bytes.size());
  EXPECT_FALSE(overflow.ReadVarint(&v));
  EXPECT_TRUE(overflow.failed());
}

TEST(ThriftVarint, ElevenBytesAreRefused) {
  Bytes bytes(10, 0x80);
  bytes.push_back(0x00);
  Reader r(bytes.data(), bytes.size());
  uint64_t v = 0;
  EXPECT_FALSE(r.ReadVarint(&v));
  EXPECT_TRUE(r.failed());
  EXPECT_LE(r.position(), bytes.size());
}

TEST(ThriftVarint, TruncatedVarintFails) {
  const Bytes bytes = {0x80, 0x80};
  Reader r(bytes.data(), bytes.size());
  uint64_t v = 0;
  EXPECT_FALSE(r.ReadVarint(&v));
  EXPECT_TRUE(r.failed());
  Reader empty(nullptr, 0);
  EXPECT_FALSE(empty.ReadVarint(&v));
}

// ---- Zigzag integers ----------------------------------------------------------------------------

TEST(ThriftZigzag, I32FieldsHaveTheSpecifiedBytes) {
  const struct {
    int32_t value;
    Bytes varint;
  } cases[] = {
      {0, {0x00}},
      {-1, {0x01}},
      {1, {0x02}},
      {-2, {0x03}},
      {1024, {0x80, 0x10}},
      {std::numeric_limits<int32_t>::max(), {0xfe, 0xff, 0xff, 0xff, 0x0f}},
      {std::numeric_limits<int32_t>::min(), {0xff, 0xff, 0xff, 0xff, 0x0f}},
  };
  for (const auto& c : cases) {
    uint8_t buffer[16];
    Writer w(buffer, sizeof buffer);
    int16_t last_id = 0;
    w.WriteI32Field(1, c.value, &last_id);
    Bytes expected = {0x15};
    expected.insert(expected.end(), c.varint.begin(), c.varint.end());
    EXPECT_EQ(Bytes(buffer, buffer + w.size()), expected) << c.value;
  }
}

TEST(ThriftZigzag, I32RoundTripsThroughWriterAndReader) {
  const int32_t values[] = {0, 1, -1, 63, -64, 64, -65, 12345, -12345, std::numeric_limits<int32_t>::max(),
                            std::numeric_limits<int32_t>::min()};
  uint8_t buffer[16 * sizeof values / sizeof values[0]];
  Writer w(buffer, sizeof buffer);
  int16_t write_last = 0;
  int16_t id = 0;
  for (int32_t v : values) w.WriteI32Field(++id, v, &write_last);
  ASSERT_FALSE(w.overflowed());

  Reader r(buffer, w.size());
  int16_t read_last = 0;
  int16_t expected_id = 0;
  for (int32_t v : values) {
    WireType type;
    int16_t field_id;
    ASSERT_TRUE(r.ReadFieldHeader(&type, &field_id, &read_last));
    EXPECT_EQ(type, WireType::kI32);
    EXPECT_EQ(field_id, ++expected_id);
    int32_t back = 0;
    ASSERT_TRUE(r.ReadI32(&back));
    EXPECT_EQ(back, v);
  }
  EXPECT_EQ(r.position(), w.size());
}

TEST(ThriftZigzag, I64RoundTripsThroughWriterAndReader) {
  const int64_t values[] = {0, 1, -1, int64_t{1} << 40, -(int64_t{1} << 40), std::numeric_limits<int64_t>::max(),
                            std::numeric_limits<int64_t>::min(), std::numeric_limits<int32_t>::min() - int64_t{1}};
  for (int64_t v : values) {
    uint8_t buffer[16];
    Writer w(buffer, sizeof buffer);
    w.WriteVarint(SpecZigzag64(v));
    Reader r(buffer, w.size());
    int64_t back = 0;
    ASSERT_TRUE(r.ReadI64(&back)) << v;
    EXPECT_EQ(back, v);
  }
  EXPECT_EQ(SpecZigzag64(std::numeric_limits<int64_t>::min()), std::numeric_limits<uint64_t>::max());
}

TEST(ThriftZigzag, I32RefusesValuesWiderThan32Bits) {
  const Bytes bytes = {0x80, 0x80, 0x80, 0x80, 0x10};  // 2^32
  Reader r(bytes.data(), bytes.size());
  int32_t v = 0;
  EXPECT_FALSE(r.ReadI32(&v));
  EXPECT_TRUE(r.failed());
}

// ---- Field headers ------------------------------------------------------------------------------

Bytes FieldHeaderBytes(WireType type, int16_t id, int16_t last_id) {
  uint8_t buffer[8];
  Writer w(buffer, sizeof buffer);
  w.WriteFieldHeader(type, id, &last_id);
  EXPECT_EQ(last_id, id);
  return Bytes(buffer, buffer + w.size());
}

TEST(ThriftFieldHeader, ShortFormForDeltasOneToFifteen) {
  EXPECT_EQ(FieldHeaderBytes(WireType::kI32, 1, 0), (Bytes{0x15}));
  EXPECT_EQ(FieldHeaderBytes(WireType::kStruct, 2, 1), (Bytes{0x1c}));
  EXPECT_EQ(FieldHeaderBytes(WireType::kBinary, 15, 0), (Bytes{0xf8}));
  EXPECT_EQ(FieldHeaderBytes(WireType::kI64, 20, 5), (Bytes{0xf6}));
}

TEST(ThriftFieldHeader, ExplicitIdOtherwise) {
  EXPECT_EQ(FieldHeaderBytes(WireType::kI32, 16, 0), (Bytes{0x05, 0x20}));    // delta 16
  EXPECT_EQ(FieldHeaderBytes(WireType::kStruct, 3, 5), (Bytes{0x0c, 0x06}));  // going down
  EXPECT_EQ(FieldHeaderBytes(WireType::kI32, 5, 5), (Bytes{0x05, 0x0a}));     // delta 0
  EXPECT_EQ(FieldHeaderBytes(WireType::kI32, -1, 0), (Bytes{0x05, 0x01}));
  EXPECT_EQ(FieldHeaderBytes(WireType::kI32, 32767, 0), (Bytes{0x05, 0xfe, 0xff, 0x03}));
}

TEST(ThriftFieldHeader, ReaderFollowsDeltasAndExplicitIds) {
  const Bytes bytes = {0x15, 0xf6, 0x0c, 0x06, 0x05, 0x01, 0x28, 0x00};
  const struct {
    WireType type;
    int16_t id;
  } expected[] = {{WireType::kI32, 1}, {WireType::kI64, 16}, {WireType::kStruct, 3}, {WireType::kI32, -1},
                  {WireType::kBinary, 1}, {WireType::kStop, 0}};
  Reader r(bytes.data(), bytes.size());
  int16_t last_id = 0;
  for (const auto& e : expected) {
    WireType type;
    int16_t id = 99;
    ASSERT_TRUE(r.ReadFieldHeader(&type, &id, &last_id));
    EXPECT_EQ(type, e.type);
    EXPECT_EQ(id, e.id);
  }
  EXPECT_EQ(r.position(), bytes.size());
}

TEST(ThriftFieldHeader, BoolFieldsCarryTheirValueInTheType) {
  const Bytes bytes = {0x11, 0x12};
  Reader r(bytes.data(), bytes.size());
  int16_t last_id = 0, id = 0;
  WireType type;
  ASSERT_TRUE(r.ReadFieldHeader(&type, &id, &last_id));
  EXPECT_EQ(type, WireType::kBoolTrue);
  EXPECT_EQ(id, 1);
  ASSERT_TRUE(r.ReadFieldHeader(&type, &id, &last_id));
  EXPECT_EQ(type, WireType::kBoolFalse);
  EXPECT_EQ(id, 2);
}

TEST(ThriftFieldHeader, RefusesUnknownTypesAndIdsOutsideInt16) {
  for (uint8_t type_nibble : {uint8_t{13}, uint8_t{14}, uint8_t{15}}) {
    const uint8_t byte = static_cast<uint8_t>(0x10 | type_nibble);
    Reader r(&byte, 1);
    int16_t last_id = 0, id = 0;
    WireType type;
    EXPECT_FALSE(r.ReadFieldHeader(&type, &id, &last_id)) << int{type_nibble};
  }
  const Bytes explicit_too_big = {0x05, 0x80, 0x80, 0x04};  // zigzag 65536 -> 32768
  Reader r(explicit_too_big.data(), explicit_too_big.size());
  int16_t last_id = 0, id = 0;
  WireType type;
  EXPECT_FALSE(r.ReadFieldHeader(&type, &id, &last_id));

  const uint8_t delta_one = 0x15;
  Reader past_max(&delta_one, 1);
  int16_t at_max = 32767;
  EXPECT_FALSE(past_max.ReadFieldHeader(&type, &id, &at_max));
}

// ---- Skip ---------------------------------------------------------------------------------------

// Skips one value of `type` from `value` followed by a sentinel byte, and expects exactly the value
// to be consumed.
void ExpectSkipsExactly(WireType type, const Bytes& value, const char* what) {
  Bytes bytes = value;
  bytes.push_back(0xEE);
  Reader r(bytes.data(), bytes.size());
  EXPECT_TRUE(r.Skip(type)) << what;
  EXPECT_FALSE(r.failed()) << what;
  EXPECT_EQ(r.position(), value.size()) << what;
}

TEST(ThriftSkip, EveryScalarWireType) {
  ExpectSkipsExactly(WireType::kBoolTrue, {}, "bool true (value in the field header)");
  ExpectSkipsExactly(WireType::kBoolFalse, {}, "bool false (value in the field header)");
  ExpectSkipsExactly(WireType::kByte, {0xff}, "byte");
  ExpectSkipsExactly(WireType::kI16, {0xfe, 0xff, 0x03}, "i16");
  ExpectSkipsExactly(WireType::kI32, {0xff, 0xff, 0xff, 0xff, 0x0f}, "i32");
  ExpectSkipsExactly(WireType::kI64, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, "i64");
  ExpectSkipsExactly(WireType::kDouble, {0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, "double");
  ExpectSkipsExactly(WireType::kBinary, {0x00}, "empty binary");
  ExpectSkipsExactly(WireType::kBinary, {0x03, 'a', 'b', 'c'}, "binary");
}

TEST(ThriftSkip, Containers) {
  ExpectSkipsExactly(WireType::kList, {0x35, 0x02, 0x04, 0x06}, "list<i32> of 3");
  ExpectSkipsExactly(WireType::kList, {0x05}, "empty list<i32>");
  ExpectSkipsExactly(WireType::kList, {0x31, 0x01, 0x02, 0x01}, "list<bool> of 3, one byte each");
  ExpectSkipsExactly(WireType::kSet, {0x22, 0x02, 0x01}, "set<bool> of 2");
  ExpectSkipsExactly(WireType::kSet, {0x28, 0x01, 'x', 0x00}, "set<binary> of 2");
  Bytes long_list = {0xf1, 20};  // size 20 needs the long form
  long_list.insert(long_list.end(), 20, 0x01);
  ExpectSkipsExactly(WireType::kList, long_list, "list<bool> of 20");
  ExpectSkipsExactly(WireType::kList, {0x2c, 0x00, 0x15, 0x02, 0x00}, "list<struct> of 2");
  ExpectSkipsExactly(WireType::kList, {0x29, 0x15, 0x02, 0x45, 0x04, 0x06, 0x08, 0x0a}, "list<list<i32>>");
  ExpectSkipsExactly(WireType::kMap, {0x00}, "empty map (no key/value type byte)");
  ExpectSkipsExactly(WireType::kMap, {0x02, 0x81, 0x01, 'a', 0x01, 0x01, 'b', 0x02}, "map<binary,bool>");
  ExpectSkipsExactly(WireType::kMap, {0x01, 0x12, 0x01, 0x01}, "map<bool,bool>");
  ExpectSkipsExactly(WireType::kMap, {0x01, 0x5c, 0x02, 0x11, 0x00}, "map<i32,struct>");
}

TEST(ThriftSkip, StructWithEveryFieldType) {
  const Bytes s = {
      0x11,                                // 1 bool true
      0x12,                                // 2 bool false
      0x13, 0x7f,                          // 3 byte
      0x14, 0x04,                          // 4 i16
      0x15, 0x06,                          // 5 i32
      0x16, 0x08,                          // 6 i64
      0x17, 1, 2, 3, 4, 5, 6, 7, 8,        // 7 double
      0x18, 0x02, 'h', 'i',                // 8 binary
      0x19, 0x21, 0x01, 0x02,              // 9 list<bool>
      0x1a, 0x15, 0x02,                    // 10 set<i32>
      0x1b, 0x01, 0x55, 0x02, 0x04,        // 11 map<i32,i32>
      0x1c, 0x15, 0x02, 0x00,              // 12 struct
      0x05, 0x82, 0x01, 0x02,              // 65 i32, explicit id
      0x00,
  };
  ExpectSkipsExactly(WireType::kStruct, s, "struct with every field type");
}

TEST(ThriftSkip, RefusesMalformedContainers) {
  const struct {
    WireType type;
    Bytes bytes;
    const char* what;
  } cases[] = {
      {WireType::kList, {0x10}, "list of 1 with element type STOP"},
      {WireType::kList, {0x1d, 0x00}, "list element type 13"},
      {WireType::kMap, {0x01, 0x05, 0x00}, "map key type STOP"},
      {WireType::kMap, {0x01, 0x50, 0x00}, "map value type STOP"},
      {WireType::kMap, {0x01, 0xd5, 0x00, 0x00}, "map key type 13"},
      {WireType::kList, {0x35, 0x02}, "list shorter than its size"},
      {WireType::kBinary, {0x05, 'a'}, "binary shorter than its length"},
      {WireType::kDouble, {1, 2, 3}, "double of 3 bytes"},
      {WireType::kStruct, {0x15}, "struct ending inside a field"},
      {WireType::kStruct, {0x15, 0x02}, "struct without STOP"},
      {WireType::kStop, {0x00}, "STOP is not a value"},
  };
  for (const auto& c : cases) {
    Reader r(c.bytes.data(), c.bytes.size());
    EXPECT_FALSE(r.Skip(c.type)) << c.what;
    EXPECT_TRUE(r.failed()) << c.what;
    EXPECT_LE(r.position(), c.bytes.size()) << c.what;
  }
}

// `levels` structs inside the outermost one: each level is a field header for a struct at id 1, then
// the innermost STOP and one STOP per enclosing struct.
Bytes NestedStructs(int levels) {
  Bytes bytes(static_cast<size_t>(levels), 0x1c);
  bytes.insert(bytes.end(), static_cast<size_t>(levels) + 1, 0x00);
  return bytes;
}

// `levels` lists inside the outermost one: each list holds one list; the innermost is empty.
Bytes NestedLists(int levels) {
  Bytes bytes(static_cast<size_t>(levels), 0x19);
  bytes.push_back(0x09);
  return bytes;
}

TEST(ThriftSkip, DepthLimitIsExactlyMaxNestingDepth) {
  ExpectSkipsExactly(WireType::kStruct, NestedStructs(kMaxNestingDepth), "structs at the limit");
  ExpectSkipsExactly(WireType::kList, NestedLists(kMaxNestingDepth), "lists at the limit");

  for (const auto& [type, bytes] : {std::pair{WireType::kStruct, NestedStructs(kMaxNestingDepth + 1)},
                                    std::pair{WireType::kList, NestedLists(kMaxNestingDepth + 1)}}) {
    Reader r(bytes.data(), bytes.size());
    EXPECT_FALSE(r.Skip(type));
    EXPECT_TRUE(r.failed());
    // The limit stops the descent before the end, instead of running through the input.
    EXPECT_LT(r.position(), bytes.size());
  }
}

TEST(ThriftSkip, DeepBombStopsAtTheLimit) {
  const Bytes bomb(100000, 0x1c);
  Reader r(bomb.data(), bomb.size());
  EXPECT_FALSE(r.Skip(WireType::kStruct));
  EXPECT_LE(r.position(), static_cast<size_t>(kMaxNestingDepth) + 2);
}

TEST(ThriftSkip, HugeDeclaredCountsEndAtTheInput) {
  // 2^62 map entries and 2^31 list elements, with only a few bytes behind them.
  const Bytes map = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 0x11, 0x01, 0x01, 0x01};
  Reader map_reader(map.data(), map.size());
  EXPECT_FALSE(map_reader.Skip(WireType::kMap));
  const Bytes list = {0xf1, 0x80, 0x80, 0x80, 0x80, 0x08, 0x01, 0x02};
  Reader list_reader(list.data(), list.size());
  EXPECT_FALSE(list_reader.Skip(WireType::kList));
  const Bytes empty_structs = {0xfc, 0x80, 0x80, 0x80, 0x80, 0x08, 0x00, 0x00, 0x00};
  Reader struct_reader(empty_structs.data(), empty_structs.size());
  EXPECT_FALSE(struct_reader.Skip(WireType::kList));
}

// ---- Failure handling ---------------------------------------------------------------------------

TEST(ThriftReader, FailureIsSticky) {
  const Bytes bytes = {0x1d, 0x01, 0x02, 0x03};  // a field header with wire type 13, then plenty of bytes
  Reader r(bytes.data(), bytes.size());
  WireType type;
  int16_t id = 0, last_id = 0;
  EXPECT_FALSE(r.ReadFieldHeader(&type, &id, &last_id));
  EXPECT_TRUE(r.failed());
  const size_t at_failure = r.position();
  uint8_t b = 0;
  uint64_t u = 0;
  int32_t i32 = 0;
  int64_t i64 = 0;
  EXPECT_FALSE(r.ReadByte(&b));
  EXPECT_FALSE(r.ReadVarint(&u));
  EXPECT_FALSE(r.ReadI32(&i32));
  EXPECT_FALSE(r.ReadI64(&i64));
  EXPECT_FALSE(r.ReadFieldHeader(&type, &id, &last_id));
  EXPECT_FALSE(r.Skip(WireType::kByte));
  EXPECT_TRUE(r.failed());
  EXPECT_EQ(r.position(), at_failure);
}

TEST(ThriftReader, TruncatedTellsRunningOutFromBadEncoding) {
  Bytes ten_byte_overflow(9, 0x80);
  ten_byte_overflow.push_back(0x02);
  const struct {
    WireType type;
    Bytes bytes;
    bool truncated;
    const char* what;
  } cases[] = {
      {WireType::kI32, {0x80}, true, "varint cut short"},
      {WireType::kBinary, {0x05, 'a'}, true, "binary cut short"},
      {WireType::kDouble, {1, 2, 3}, true, "double cut short"},
      {WireType::kList, {0x35, 0x02}, true, "list cut short"},
      {WireType::kStruct, {0x15}, true, "struct cut short"},
      // Bad bytes that happen to be the last byte of the input are still bad encoding.
      {WireType::kStruct, {0x1d}, false, "wire type 13"},
      {WireType::kI64, ten_byte_overflow, false, "varint over 64 bits"},
      {WireType::kList, {0x10}, false, "list element type STOP"},
      {WireType::kStruct, Bytes(static_cast<size_t>(kMaxNestingDepth) + 1, 0x1c), false, "too deep"},
  };
  for (const auto& c : cases) {
    Reader r(c.bytes.data(), c.bytes.size());
    EXPECT_FALSE(r.Skip(c.type)) << c.what;
    EXPECT_TRUE(r.failed()) << c.what;
    EXPECT_EQ(r.truncated(), c.truncated) << c.what;
  }
  const Bytes fine = {0x01};
  Reader r(fine.data(), fine.size());
  uint64_t v = 0;
  EXPECT_TRUE(r.ReadVarint(&v));
  EXPECT_FALSE(r.truncated());
}

TEST(ThriftReader, EndOfInputIsAFailureNotAStop) {
  Reader r(nullptr, 0);
  WireType type = WireType::kI32;
  int16_t id = 7, last_id = 0;
  EXPECT_FALSE(r.ReadFieldHeader(&type, &id, &last_id));
  EXPECT_TRUE(r.failed());
}

TEST(ThriftWriter, OverflowIsReportedAndNothingIsWrittenPastCapacity) {
  uint8_t buffer[8];
  std::fill(std::begin(buffer), std::end(buffer), uint8_t{0xEE});
  Writer w(buffer, 3);
  w.WriteVarint(std::numeric_limits<uint64_t>::max());
  EXPECT_TRUE(w.overflowed());
  EXPECT_EQ(w.size(), 3u);
  w.WriteStop();
  EXPECT_TRUE(w.overflowed());
  EXPECT_EQ(w.size(), 3u);
  for (size_t i = 3; i < sizeof buffer; ++i) EXPECT_EQ(buffer[i], 0xEE) << i;
}

}  // namespace
}  // namespace pb::thrift
