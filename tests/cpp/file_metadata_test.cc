// DecodeFileMetaData (parquet.thrift FileMetaData, SchemaElement, RowGroup, ColumnChunk, ColumnMetaData)
// on small footers spelled field by field with the compact protocol's rules (thrift-compact-protocol.md),
// by an encoder kept separate from src/thrift_compact, each with the records it must produce.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "file_metadata.h"
#include "fixtures.h"

namespace pb {
namespace {

// Compact protocol type ids (thrift-compact-protocol.md, "Struct encoding").
constexpr uint8_t kTrue = 1, kFalse = 2, kI32 = 5, kI64 = 6, kBinary = 8, kList = 9, kStruct = 12;

// Writes compact-protocol bytes the way the spec spells them; each open struct keeps its last field id.
class Compact {
 public:
  std::vector<uint8_t> bytes;

  size_t size() const { return bytes.size(); }

  void Byte(uint8_t b) { bytes.push_back(b); }
  void Varint(uint64_t v) {
    for (; v >= 0x80; v >>= 7) Byte(static_cast<uint8_t>(v | 0x80));
    Byte(static_cast<uint8_t>(v));
  }
  void Zigzag(int64_t v) { Varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }

  void Field(uint8_t type, int16_t id) {
    const int delta = id - last_ids_.back();
    if (delta > 0 && delta <= 15) {
      Byte(static_cast<uint8_t>(delta << 4 | type));
    } else {
      Byte(type);
      Zigzag(id);
    }
    last_ids_.back() = id;
  }
  void I32(int16_t id, int32_t v) {
    Field(kI32, id);
    Zigzag(v);
  }
  void I64(int16_t id, int64_t v) {
    Field(kI64, id);
    Zigzag(v);
  }
  void Bool(int16_t id, bool v) { Field(v ? kTrue : kFalse, id); }
  void String(int16_t id, const std::string& s) {
    Field(kBinary, id);
    Varint(s.size());
    bytes.insert(bytes.end(), s.begin(), s.end());
  }
  // A struct-valued field; close it with End().
  void Struct(int16_t id) {
    Field(kStruct, id);
    last_ids_.push_back(0);
  }
  // A list-valued field of `count` elements of `element_type`.
  void List(int16_t id, uint8_t element_type, uint64_t count) {
    Field(kList, id);
    ListHeader(element_type, count);
  }
  void ListHeader(uint8_t element_type, uint64_t count) {
    if (count < 15) {
      Byte(static_cast<uint8_t>(count << 4 | element_type));
    } else {
      Byte(static_cast<uint8_t>(0xf0 | element_type));
      Varint(count);
    }
  }
  // A struct element of a list; close it with End().
  void Element() { last_ids_.push_back(0); }
  // STOP: closes the innermost struct (at the outermost level, the FileMetaData itself).
  void End() {
    Byte(0);
    if (last_ids_.size() > 1) last_ids_.pop_back();
  }

 private:
  std::vector<int16_t> last_ids_{0};
};

// SchemaElement {1: type, 3: repetition_type, 4: name, 5: num_children}, what every element needs here.
void SchemaElement(Compact* c, const std::string& name, int32_t type, int32_t repetition, int32_t num_children) {
  c->Element();
  if (type >= 0) c->I32(1, type);
  if (repetition >= 0) c->I32(3, repetition);
  c->String(4, name);
  if (num_children >= 0) c->I32(5, num_children);
}

// ColumnMetaData with every required field, and the optional ones probing reads when given (>= 0).
void ColumnMetaData(Compact* c, int32_t type, const std::string& path, int64_t data_page_offset,
                    int64_t dictionary_page_offset, int64_t bloom_offset, int32_t bloom_length) {
  c->Struct(3);
  c->I32(1, type);
  c->List(2, kI32, 1);
  c->Zigzag(0);  // encodings: [PLAIN]
  c->List(3, kBinary, 1);
  c->Varint(path.size());
  c->bytes.insert(c->bytes.end(), path.begin(), path.end());
  c->I32(4, 0);     // codec UNCOMPRESSED
  c->I64(5, 3);     // num_values
  c->I64(6, 120);   // total_uncompressed_size
  c->I64(7, 100);   // total_compressed_size
  c->I64(9, data_page_offset);
  if (dictionary_page_offset >= 0) c->I64(11, dictionary_page_offset);
  c->Struct(12);    // statistics {5: null_count}: skipped
  c->I64(3, 0);
  c->End();
  if (bloom_offset >= 0) c->I64(14, bloom_offset);
  if (bloom_length >= 0) c->I32(15, bloom_length);
  c->End();
}

struct Decoded {
  Status pass_one = Status::kMalformed;
  Status pass_two = Status::kMalformed;
  FileSummary summary;
  std::vector<SchemaRecord> schema;
  std::vector<RowGroupRecord> row_groups;
  std::vector<ChunkRecord> chunks;
};

// Both passes, as the bindings run them: count, then fill arrays of the counted sizes.
Decoded DecodeBoth(const std::vector<uint8_t>& footer) {
  Decoded d;
  d.pass_one = DecodeFileMetaData(footer.data(), footer.size(), &d.summary, nullptr);
  if (!ok(d.pass_one)) return d;
  // Pass two wants every array, even an empty one (the bindings always pass addresses).
  const auto at_least_one = [](int32_t count) { return static_cast<size_t>(count > 0 ? count : 1); };
  d.schema.resize(at_least_one(d.summary.schema_count));
  d.row_groups.resize(at_least_one(d.summary.row_group_count));
  d.chunks.resize(at_least_one(d.summary.chunk_count));
  FileMetaDataOutput out{d.schema.data(), d.row_groups.data(), d.chunks.data()};
  d.pass_two = DecodeFileMetaData(footer.data(), footer.size(), &d.summary, &out);
  return d;
}

// parquet.thrift numbers used below.
constexpr int32_t kInt64 = 2, kByteArray = 6, kFixedLenByteArray = 7, kInt32 = 1;
constexpr int32_t kRequired = 0, kOptional = 1;

// schema: root{id: INT64, name: BYTE_ARRAY STRING}; one row group of 3 rows; a bloom filter on `id`.
std::vector<uint8_t> TwoColumnFooter(size_t* created_by_at) {
  Compact c;
  c.I32(1, 2);  // version
  c.List(2, kStruct, 3);
  SchemaElement(&c, "schema", -1, -1, 2);
  c.End();
  SchemaElement(&c, "id", kInt64, kRequired, -1);
  c.End();
  SchemaElement(&c, "name", kByteArray, kOptional, -1);
  c.I32(6, 0);  // converted_type UTF8
  c.Struct(10);  // logicalType: STRING
  c.Struct(1);
  c.End();
  c.End();
  c.End();
  c.I64(3, 3);  // num_rows
  c.List(4, kStruct, 1);
  c.Element();
  c.List(1, kStruct, 2);
  c.Element();  // ColumnChunk for id
  c.I64(2, 4);  // file_offset
  ColumnMetaData(&c, kInt64, "id", 4, -1, 200, 47);
  c.I64(4, 310);  // offset_index_offset
  c.I32(5, 20);
  c.I64(6, 300);  // column_index_offset
  c.I32(7, 10);
  c.End();
  c.Element();  // ColumnChunk for name: no filter
  c.I64(2, 104);
  ColumnMetaData(&c, kByteArray, "name", 150, 104, -1, -1);
  c.End();
  c.I64(2, 240);  // total_byte_size
  c.I64(3, 3);    // num_rows
  c.End();
  c.List(5, kStruct, 1);  // key_value_metadata: skipped
  c.Element();
  c.String(1, "writer.note");
  c.String(2, "hand-made");
  c.End();
  *created_by_at = c.size() + 2;  // after the field header and the one-byte length
  c.String(6, "pb test 1.0");
  c.List(7, kStruct, 2);  // column_orders: skipped
  for (int i = 0; i < 2; ++i) {
    c.Element();
    c.Struct(1);
    c.End();
    c.End();
  }
  c.End();
  return c.bytes;
}

TEST(FileMetaDataDecode, SummaryOfATwoColumnFile) {
  size_t created_by_at = 0;
  const std::vector<uint8_t> footer = TwoColumnFooter(&created_by_at);
  const Decoded d = DecodeBoth(footer);
  ASSERT_EQ(d.pass_one, Status::kOk);
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.summary.version, 2);
  EXPECT_EQ(d.summary.schema_count, 3);
  EXPECT_EQ(d.summary.row_group_count, 1);
  EXPECT_EQ(d.summary.chunk_count, 2);
  EXPECT_EQ(d.summary.num_rows, 3);
  EXPECT_EQ(d.summary.created_by_offset, static_cast<int32_t>(created_by_at));
  EXPECT_EQ(d.summary.created_by_length, 11);
  EXPECT_EQ(std::string(footer.begin() + created_by_at, footer.begin() + created_by_at + 11), "pb test 1.0");
  EXPECT_EQ(d.summary.has_encryption_algorithm, 0);
}

TEST(FileMetaDataDecode, SchemaRecordsKeepNamesByReferenceAndAbsentFieldsAsMinusOne) {
  size_t created_by_at = 0;
  const std::vector<uint8_t> footer = TwoColumnFooter(&created_by_at);
  const Decoded d = DecodeBoth(footer);
  ASSERT_EQ(d.pass_two, Status::kOk);
  const char* names[] = {"schema", "id", "name"};
  for (int i = 0; i < 3; ++i) {
    const SchemaRecord& s = d.schema[i];
    EXPECT_EQ(std::string(footer.begin() + s.name_offset, footer.begin() + s.name_offset + s.name_length), names[i]);
  }
  EXPECT_EQ(d.schema[0].type, -1);
  EXPECT_EQ(d.schema[0].num_children, 2);
  EXPECT_EQ(d.schema[0].repetition, -1);
  EXPECT_EQ(d.schema[1].type, kInt64);
  EXPECT_EQ(d.schema[1].repetition, kRequired);
  EXPECT_EQ(d.schema[1].num_children, -1);
  EXPECT_EQ(d.schema[1].converted_type, -1);
  EXPECT_EQ(d.schema[1].logical_kind, 0);
  EXPECT_EQ(d.schema[2].type, kByteArray);
  EXPECT_EQ(d.schema[2].repetition, kOptional);
  EXPECT_EQ(d.schema[2].converted_type, 0);
  EXPECT_EQ(d.schema[2].logical_kind, 1);  // STRING
  for (const SchemaRecord& s : d.schema) {
    EXPECT_EQ(s.type_length, -1);
    EXPECT_EQ(s.scale, -1);
    EXPECT_EQ(s.precision, -1);
    EXPECT_EQ(s.field_id, -1);
  }
}

TEST(FileMetaDataDecode, ChunkRecordsCarryTheOffsetsThatLocateFilters) {
  size_t created_by_at = 0;
  const Decoded d = DecodeBoth(TwoColumnFooter(&created_by_at));
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.row_groups[0].num_rows, 3);
  EXPECT_EQ(d.row_groups[0].num_columns, 2);

  const ChunkRecord& id = d.chunks[0];
  EXPECT_EQ(id.bloom_offset, 200);
  EXPECT_EQ(id.bloom_length, 47);
  EXPECT_EQ(id.data_page_offset, 4);
  EXPECT_EQ(id.dictionary_page_offset, -1);
  EXPECT_EQ(id.column_index_offset, 300);
  EXPECT_EQ(id.offset_index_offset, 310);
  EXPECT_EQ(id.total_compressed_size, 100);
  EXPECT_EQ(id.physical_type, kInt64);
  EXPECT_EQ(id.flags, kChunkHasMetaData);

  const ChunkRecord& name = d.chunks[1];
  EXPECT_EQ(name.bloom_offset, -1);
  EXPECT_EQ(name.bloom_length, -1);
  EXPECT_EQ(name.data_page_offset, 150);
  EXPECT_EQ(name.dictionary_page_offset, 104);
  EXPECT_EQ(name.column_index_offset, -1);
  EXPECT_EQ(name.offset_index_offset, -1);
  EXPECT_EQ(name.physical_type, kByteArray);
  EXPECT_EQ(name.flags, kChunkHasMetaData);
}

// One leaf of the given logicalType member, written by `logical`, in a file with no row groups.
template <typename WriteLogical>
Decoded DecodeOneLeaf(int32_t type, WriteLogical&& logical, int32_t type_length = -1) {
  Compact c;
  c.List(2, kStruct, 2);
  SchemaElement(&c, "root", -1, -1, 1);
  c.End();
  c.Element();
  c.I32(1, type);
  if (type_length >= 0) c.I32(2, type_length);
  c.I32(3, kOptional);
  c.String(4, "v");
  c.Struct(10);
  logical(&c);
  c.End();
  c.End();
  c.I64(3, 0);
  c.List(4, kStruct, 0);
  c.End();
  return DecodeBoth(c.bytes);
}

TEST(FileMetaDataDecode, DecimalLogicalTypeKeepsScaleAndPrecision) {
  const Decoded d = DecodeOneLeaf(kFixedLenByteArray, [](Compact* c) {
    c->Struct(5);  // DECIMAL {1: scale, 2: precision}
    c->I32(1, 2);
    c->I32(2, 9);
    c->End();
  }, 4);
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.summary.row_group_count, 0);
  EXPECT_EQ(d.schema[1].type_length, 4);
  EXPECT_EQ(d.schema[1].logical_kind, 5);
  EXPECT_EQ(d.schema[1].logical_a, 2);
  EXPECT_EQ(d.schema[1].logical_b, 9);
}

TEST(FileMetaDataDecode, TimestampLogicalTypeKeepsUnitAndUtcFlag) {
  const Decoded d = DecodeOneLeaf(kInt64, [](Compact* c) {
    c->Struct(8);  // TIMESTAMP {1: isAdjustedToUTC, 2: unit}
    c->Bool(1, true);
    c->Struct(2);
    c->Struct(2);  // TimeUnit MICROS
    c->End();
    c->End();
    c->End();
  });
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.schema[1].logical_kind, 8);
  EXPECT_EQ(d.schema[1].logical_a, 2);
  EXPECT_EQ(d.schema[1].logical_b, 1);
}

TEST(FileMetaDataDecode, IntegerLogicalTypeKeepsWidthAndSign) {
  const Decoded d = DecodeOneLeaf(kInt32, [](Compact* c) {
    c->Struct(10);  // INTEGER {1: bitWidth (i8), 2: isSigned}
    c->Field(3, 1);  // byte
    c->Byte(8);
    c->Bool(2, false);
    c->End();
  });
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.schema[1].logical_kind, 10);
  EXPECT_EQ(d.schema[1].logical_a, 8);
  EXPECT_EQ(d.schema[1].logical_b, 0);
}

// The footer of a file whose only row group holds one chunk built by `chunk` (inside its ColumnChunk element).
template <typename WriteChunk>
std::vector<uint8_t> OneChunkFooter(WriteChunk&& chunk, bool with_encryption_algorithm = false) {
  Compact c;
  c.List(2, kStruct, 2);
  SchemaElement(&c, "root", -1, -1, 1);
  c.End();
  SchemaElement(&c, "x", kInt32, kRequired, -1);
  c.End();
  c.I64(3, 1);
  c.List(4, kStruct, 1);
  c.Element();
  c.List(1, kStruct, 1);
  c.Element();
  chunk(&c);
  c.End();
  c.I64(2, 10);
  c.I64(3, 1);
  c.End();
  if (with_encryption_algorithm) {
    c.Struct(8);  // EncryptionAlgorithm {1: AES_GCM_V1 {}}
    c.Struct(1);
    c.End();
    c.End();
  }
  c.End();
  return c.bytes;
}

template <typename WriteChunk>
Decoded DecodeOneChunk(WriteChunk&& chunk, bool with_encryption_algorithm = false) {
  return DecodeBoth(OneChunkFooter(chunk, with_encryption_algorithm));
}

TEST(FileMetaDataDecode, ChunkFlagsSayWhatCannotBeRead) {
  Decoded d = DecodeOneChunk([](Compact* c) {
    c->I64(2, 4);
    ColumnMetaData(c, kInt32, "x", 4, -1, 50, 47);
    c->Struct(8);  // crypto_metadata: ENCRYPTION_WITH_FOOTER_KEY {}
    c->Struct(1);
    c->End();
    c->End();
  });
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.chunks[0].flags, kChunkHasMetaData | kChunkHasCryptoMetaData);
  EXPECT_EQ(d.chunks[0].bloom_offset, 50);

  // encrypted_column_metadata instead of meta_data: nothing about the chunk is known.
  d = DecodeOneChunk([](Compact* c) {
    c->I64(2, 4);
    c->String(9, "\x01\x02\x03");
  });
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.chunks[0].flags, kChunkEncryptedMetaData);
  EXPECT_EQ(d.chunks[0].bloom_offset, -1);
  EXPECT_EQ(d.chunks[0].physical_type, -1);

  // A non-empty file_path: the chunk's bytes are in another file; an empty one means this file.
  d = DecodeOneChunk([](Compact* c) {
    c->String(1, "part-1.parquet");
    c->I64(2, 4);
    ColumnMetaData(c, kInt32, "x", 4, -1, -1, -1);
  });
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.chunks[0].flags, kChunkHasMetaData | kChunkExternalFile);
  d = DecodeOneChunk([](Compact* c) {
    c->String(1, "");
    c->I64(2, 4);
    ColumnMetaData(c, kInt32, "x", 4, -1, -1, -1);
  });
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.chunks[0].flags, kChunkHasMetaData);
}

TEST(FileMetaDataDecode, EncryptionAlgorithmMarksAPlaintextFooterWithEncryptedColumns) {
  const Decoded d = DecodeOneChunk([](Compact* c) {
    c->I64(2, 4);
    ColumnMetaData(c, kInt32, "x", 4, -1, -1, -1);
  }, true);
  ASSERT_EQ(d.pass_two, Status::kOk);
  EXPECT_EQ(d.summary.has_encryption_algorithm, 1);
}

// {2: schema [root{4: "r"}], 3: num_rows, 4: row_groups []} minus what `omit` names.
std::vector<uint8_t> MinimalFooter(bool schema, bool num_rows, bool row_groups) {
  Compact c;
  if (schema) {
    c.List(2, kStruct, 1);
    c.Element();
    c.String(4, "r");
    c.End();
  }
  if (num_rows) c.I64(3, 0);
  if (row_groups) c.List(4, kStruct, 0);
  c.End();
  return c.bytes;
}

TEST(FileMetaDataDecode, RequiredFieldsMustBePresent) {
  FileSummary summary;
  std::vector<uint8_t> footer = MinimalFooter(true, true, true);
  EXPECT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &summary, nullptr), Status::kOk);
  EXPECT_EQ(summary.schema_count, 1);
  for (int omitted = 0; omitted < 3; ++omitted) {
    footer = MinimalFooter(omitted != 0, omitted != 1, omitted != 2);
    EXPECT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &summary, nullptr), Status::kMalformed)
        << "without field " << (omitted == 0 ? "schema" : omitted == 1 ? "num_rows" : "row_groups");
  }
}

TEST(FileMetaDataDecode, EmptySchemaAndNamelessElementsAreMalformed) {
  Compact c;
  c.List(2, kStruct, 0);
  c.I64(3, 0);
  c.List(4, kStruct, 0);
  c.End();
  FileSummary summary;
  EXPECT_EQ(DecodeFileMetaData(c.bytes.data(), c.size(), &summary, nullptr), Status::kMalformed);

  Compact nameless;
  nameless.List(2, kStruct, 1);
  nameless.Element();
  nameless.I32(5, 0);  // num_children, but no name
  nameless.End();
  nameless.I64(3, 0);
  nameless.List(4, kStruct, 0);
  nameless.End();
  EXPECT_EQ(DecodeFileMetaData(nameless.bytes.data(), nameless.size(), &summary, nullptr), Status::kMalformed);
}

TEST(FileMetaDataDecode, ListCountsBeyondTheBytesLeftAreRefusedUpFront) {
  // 2^31 schema elements declared in a footer of a dozen bytes.
  Compact c;
  c.List(2, kStruct, uint64_t{1} << 31);
  c.Element();
  c.String(4, "r");
  c.End();
  FileSummary summary;
  EXPECT_EQ(DecodeFileMetaData(c.bytes.data(), c.size(), &summary, nullptr), Status::kMalformed);
  EXPECT_EQ(summary.schema_count, 0);
}

TEST(FileMetaDataDecode, ErrorOffsetIsWhereDecodingStopped) {
  // num_rows as a string: the field header is read, then the value is refused where it starts.
  Compact c;
  c.List(2, kStruct, 1);
  c.Element();
  c.String(4, "r");
  c.End();
  c.String(3, "3");
  const size_t value_at = c.size() - 2;  // after the field header byte: the length byte
  c.List(4, kStruct, 0);
  c.End();
  FileSummary summary;
  EXPECT_EQ(DecodeFileMetaData(c.bytes.data(), c.size(), &summary, nullptr), Status::kMalformed);
  EXPECT_EQ(summary.error_offset, static_cast<int32_t>(value_at));

  // Truncated inside the row group list: stops at the end of the input.
  std::vector<uint8_t> footer = MinimalFooter(true, true, false);
  footer.pop_back();                 // the STOP
  footer.push_back(0x19);            // field 4, list
  footer.push_back(0x1c);            // one struct element, then nothing
  EXPECT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &summary, nullptr), Status::kMalformed);
  EXPECT_EQ(summary.error_offset, static_cast<int32_t>(footer.size()));
}

TEST(FileMetaDataDecode, BadArgumentsAreInvalidArgument) {
  FileSummary summary;
  EXPECT_EQ(DecodeFileMetaData(nullptr, 4, &summary, nullptr), Status::kInvalidArgument);
  const std::vector<uint8_t> footer = MinimalFooter(true, true, true);
  SchemaRecord schema[1];
  FileMetaDataOutput missing_chunks{schema, nullptr, nullptr};
  EXPECT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &summary, &missing_chunks), Status::kInvalidArgument);
}

// --- Big footers: the counting pass, the outline pass and DecodeColumnChunks (js/footer/footer.js,
// js/footer/chunk-indexes.js), checked against the full decoder on the same bytes.

struct Outline {
  Status counts = Status::kMalformed;
  Status outline = Status::kMalformed;
  FileSummary counted;
  FileSummary summary;
  std::vector<SchemaRecord> schema;
  std::vector<RowGroupRecord> row_groups;
  std::vector<ChunkRecord> chunks;
  std::vector<ChunkSpan> spans;
};

// The counting pass, then the outline pass into arrays of exactly `chunk_capacity` chunks.
Outline DecodeOutline(const std::vector<uint8_t>& footer, int64_t chunk_capacity) {
  Outline o;
  o.counts = DecodeFileMetaDataCounts(footer.data(), footer.size(), &o.counted);
  if (!ok(o.counts)) return o;
  o.schema.resize(static_cast<size_t>(o.counted.schema_count));
  o.row_groups.resize(static_cast<size_t>(o.counted.row_group_count));
  o.chunks.resize(static_cast<size_t>(chunk_capacity));
  o.spans.resize(static_cast<size_t>(chunk_capacity));
  std::vector<int32_t> orders(static_cast<size_t>(o.counted.schema_count));
  FileMetaDataOutput out{o.schema.data(), o.row_groups.data(), o.chunks.data(), nullptr, orders.data()};
  out.chunk_spans = o.spans.data();
  out.schema_capacity = o.counted.schema_count;
  out.row_group_capacity = o.counted.row_group_count;
  out.chunk_capacity = chunk_capacity;
  out.column_order_capacity = o.counted.schema_count;
  o.outline = DecodeFileMetaData(footer.data(), footer.size(), &o.summary, &out);
  return o;
}

// Every chunk of the full decode, and the same chunks decoded from the outline's spans one by one,
// gathered in reverse order into one buffer as js/footer/chunk-indexes.js packs them.
void ExpectLazyEqualsFull(const std::vector<uint8_t>& footer, const std::string& what) {
  FileSummary full_summary;
  ASSERT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &full_summary, nullptr), Status::kOk) << what;
  const size_t n = static_cast<size_t>(full_summary.chunk_count);
  std::vector<SchemaRecord> schema(static_cast<size_t>(full_summary.schema_count));
  std::vector<RowGroupRecord> row_groups(static_cast<size_t>(full_summary.row_group_count) + 1);
  std::vector<ChunkRecord> chunks(n + 1);
  std::vector<ChunkIndexRecord> indexes(n + 1);
  FileMetaDataOutput full{schema.data(), row_groups.data(), chunks.data(), indexes.data()};
  ASSERT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &full_summary, &full), Status::kOk) << what;

  const Outline o = DecodeOutline(footer, full_summary.chunk_count);
  ASSERT_EQ(o.counts, Status::kOk) << what;
  ASSERT_EQ(o.outline, Status::kOk) << what;
  EXPECT_EQ(o.counted.schema_count, full_summary.schema_count) << what;
  EXPECT_EQ(o.counted.row_group_count, full_summary.row_group_count) << what;
  EXPECT_EQ(o.summary.chunk_count, full_summary.chunk_count) << what;
  EXPECT_EQ(o.summary.created_by_offset, full_summary.created_by_offset) << what;
  EXPECT_EQ(o.summary.column_order_count, full_summary.column_order_count) << what;
  for (size_t i = 0; i < schema.size(); ++i) EXPECT_EQ(std::memcmp(&o.schema[i], &schema[i], sizeof schema[i]), 0) << what;

  std::vector<uint8_t> gathered;
  std::vector<ChunkSpan> order;
  for (size_t k = n; k-- > 0;) {
    const ChunkSpan span = o.spans[k];
    ASSERT_GE(span.offset, 0);
    ASSERT_LE(static_cast<size_t>(span.offset) + static_cast<size_t>(span.length), footer.size());
    gathered.insert(gathered.end(), footer.begin() + span.offset, footer.begin() + span.offset + span.length);
    order.push_back(span);
  }
  std::vector<ChunkRecord> lazy_chunks(n + 1);
  std::vector<ChunkIndexRecord> lazy_indexes(n + 1);
  int32_t failed = 0;
  ASSERT_EQ(DecodeColumnChunks(gathered.data(), gathered.size(), order.data(), static_cast<uint32_t>(n), lazy_chunks.data(),
                               lazy_indexes.data(), &failed),
            Status::kOk)
      << what;
  EXPECT_EQ(failed, -1);
  for (size_t k = 0; k < n; ++k) {
    const size_t chunk = n - 1 - k;
    EXPECT_EQ(std::memcmp(&o.chunks[chunk], &chunks[chunk], sizeof(ChunkRecord)), 0) << what << ": outline chunk " << chunk;
    EXPECT_EQ(std::memcmp(&lazy_chunks[k], &chunks[chunk], sizeof(ChunkRecord)), 0) << what << ": lazy chunk " << chunk;
    EXPECT_EQ(std::memcmp(&lazy_indexes[k], &indexes[chunk], sizeof(ChunkIndexRecord)), 0) << what << ": lazy index " << chunk;
  }
}

TEST(FileMetaDataLazy, CountingPassReadsTheListHeadersOnly) {
  size_t created_by_at = 0;
  const std::vector<uint8_t> footer = TwoColumnFooter(&created_by_at);
  FileSummary summary;
  ASSERT_EQ(DecodeFileMetaDataCounts(footer.data(), footer.size(), &summary), Status::kOk);
  EXPECT_EQ(summary.schema_count, 3);
  EXPECT_EQ(summary.row_group_count, 1);
  EXPECT_EQ(summary.chunk_count, 0);           // not counted: the pass stopped at the row groups
  EXPECT_EQ(summary.created_by_offset, -1);    // which come before created_by
  // Bytes after the row groups' list header are not read: a footer cut there still counts.
  std::vector<uint8_t> cut(footer.begin(), footer.begin() + static_cast<std::ptrdiff_t>(created_by_at) - 40);
  EXPECT_EQ(DecodeFileMetaDataCounts(cut.data(), cut.size(), &summary), Status::kOk);
  EXPECT_EQ(summary.row_group_count, 1);
  FileSummary full;
  EXPECT_EQ(DecodeFileMetaData(cut.data(), cut.size(), &full, nullptr), Status::kMalformed);
}

TEST(FileMetaDataLazy, OutlineAndSpansAgreeWithTheFullDecoder) {
  size_t created_by_at = 0;
  ExpectLazyEqualsFull(TwoColumnFooter(&created_by_at), "two-column footer");
}

TEST(FileMetaDataLazy, OutlineWritesNoRecordPastItsCapacityButCountsThem) {
  size_t created_by_at = 0;
  const std::vector<uint8_t> footer = TwoColumnFooter(&created_by_at);
  // A capacity of one chunk in an exactly one-chunk array: AddressSanitizer catches a second record.
  const Outline o = DecodeOutline(footer, 1);
  ASSERT_EQ(o.outline, Status::kOk);
  EXPECT_EQ(o.summary.chunk_count, 2);
  EXPECT_EQ(o.chunks[0].bloom_offset, 200);
}

TEST(FileMetaDataLazy, OutlineLeavesWhatOnlyIndexesNeedToTheLazyDecoder) {
  // Statistics.null_count given as a string: malformed for the full decoder and for the chunk's lazy
  // decode, but the outline (which skips statistics unread) opens the file.
  const std::vector<uint8_t> footer = OneChunkFooter([](Compact* c) {
    c->I64(2, 4);
    c->Struct(3);
    c->I32(1, kInt32);
    c->I64(7, 10);
    c->I64(9, 4);
    c->Struct(12);
    c->String(3, "x");  // null_count, as a string
    c->End();
    c->End();
  });
  FileSummary summary;
  EXPECT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &summary, nullptr), Status::kMalformed);
  const Outline o = DecodeOutline(footer, 1);
  ASSERT_EQ(o.outline, Status::kOk);
  EXPECT_EQ(o.chunks[0].data_page_offset, 4);
  EXPECT_EQ(o.chunks[0].total_compressed_size, 10);
  const ChunkSpan span = o.spans[0];
  ChunkRecord chunk;
  ChunkIndexRecord index;
  int32_t failed = 0;
  EXPECT_EQ(DecodeColumnChunks(footer.data() + span.offset, static_cast<size_t>(span.length), &span, 1, &chunk, &index, &failed),
            Status::kMalformed);
  EXPECT_EQ(failed, 0);
}

TEST(FileMetaDataLazy, ASliceMustDecodeToExactlyItsLength) {
  size_t created_by_at = 0;
  const std::vector<uint8_t> footer = TwoColumnFooter(&created_by_at);
  const Outline o = DecodeOutline(footer, 2);
  ASSERT_EQ(o.outline, Status::kOk);
  std::vector<uint8_t> bytes(footer.begin() + o.spans[0].offset, footer.begin() + o.spans[0].offset + o.spans[0].length);
  bytes.insert(bytes.end(), footer.begin() + o.spans[1].offset, footer.begin() + o.spans[1].offset + o.spans[1].length);
  ChunkRecord chunks[2];
  ChunkIndexRecord indexes[2];
  int32_t failed = 0;
  ChunkSpan spans[2] = {o.spans[0], o.spans[1]};
  ASSERT_EQ(DecodeColumnChunks(bytes.data(), bytes.size(), spans, 2, chunks, indexes, &failed), Status::kOk);
  spans[1].length -= 1;  // cut short: the chunk's STOP is missing
  EXPECT_EQ(DecodeColumnChunks(bytes.data(), bytes.size() - 1, spans, 2, chunks, indexes, &failed), Status::kMalformed);
  EXPECT_EQ(failed, 1);
  spans[1].length += 2;  // one byte more than the chunk, and more than the buffer holds
  EXPECT_EQ(DecodeColumnChunks(bytes.data(), bytes.size(), spans, 2, chunks, indexes, &failed), Status::kInvalidArgument);
  EXPECT_EQ(failed, 1);
  bytes.push_back(0);  // one byte more than the chunk: it must use up its slice
  EXPECT_EQ(DecodeColumnChunks(bytes.data(), bytes.size(), spans, 2, chunks, indexes, &failed), Status::kMalformed);
  EXPECT_EQ(failed, 1);
}

// The outline pass reads chunks on a fast cursor that declines some shapes (long-form field ids, maps,
// deep nesting) and hands them to the general reader: records, spans, and for a malformed chunk the
// status and the place it stopped, must be what the general reader gives alone.
TEST(FileMetaDataLazy, OutlineFastPathHandsUnusualChunksToTheGeneralReader) {
  constexpr uint8_t kByte = 3, kDouble = 7, kMap = 11;
  auto chunk_with = [](auto&& extra) {
    return OneChunkFooter([&](Compact* c) {
      c->I64(2, 4);
      c->Struct(3);
      c->I32(1, kInt32);
      c->I64(7, 10);
      c->I64(9, 4);
      extra(c);
      c->I64(14, 300);  // bloom_filter_offset, after whatever was declined
      c->End();
      c->I64(4, 77);  // offset_index_offset
    });
  };
  const std::vector<std::vector<uint8_t>> footers = {
      chunk_with([](Compact* c) { c->I64(300, 1); }),  // long-form id (delta > 15), then back to 14
      chunk_with([](Compact* c) {                      // a map<i32, binary> field
        c->Field(kMap, 10);
        c->Varint(2);
        c->Byte(static_cast<uint8_t>(kI32 << 4 | kBinary));
        c->Zigzag(1);
        c->Varint(1);
        c->Byte('a');
        c->Zigzag(2);
        c->Varint(0);
      }),
      chunk_with([](Compact* c) {  // codec as a byte, a double, a list of booleans
        c->Field(kByte, 4);
        c->Byte(0xfe);
        c->Field(kDouble, 6);
        for (int i = 0; i < 8; ++i) c->Byte(0x11);
        c->List(8, kTrue, 3);
        c->Byte(1);
        c->Byte(0);
        c->Byte(1);
      }),
      chunk_with([](Compact* c) {  // structs nested 12 deep: deeper than the fast cursor goes
        for (int i = 0; i < 12; ++i) c->Struct(static_cast<int16_t>(i == 0 ? 10 : 1));
        c->I32(1, 5);
        for (int i = 0; i < 12; ++i) c->End();
      }),
      chunk_with([](Compact* c) {  // an empty list of STOP elements (Reader takes it, the cursor declines)
        c->Field(kList, 10);
        c->Byte(0x00);
      }),
  };
  for (size_t i = 0; i < footers.size(); ++i) {
    ExpectLazyEqualsFull(footers[i], "unusual chunk " + std::to_string(i));
    const Outline o = DecodeOutline(footers[i], 1);
    ASSERT_EQ(o.outline, Status::kOk);
    EXPECT_EQ(o.chunks[0].bloom_offset, 300) << i;
    EXPECT_EQ(o.chunks[0].offset_index_offset, 77) << i;
  }

  // Malformed chunks: the outline stops where, and as, the full decoder does.
  const std::vector<std::vector<uint8_t>> malformed = {
      chunk_with([](Compact* c) { c->String(9, "x"); }),  // data_page_offset as a string
      chunk_with([](Compact* c) {                         // an integer past ten varint bytes
        c->Field(kI64, 10);
        for (int k = 0; k < 11; ++k) c->Byte(0x80);
        c->Byte(0);
      }),
      chunk_with([](Compact* c) {  // codec beyond int32
        c->I64(4, int64_t{1} << 40);
      }),
      chunk_with([](Compact* c) {  // a list that claims more elements than bytes are left
        c->List(10, kI32, 1000000);
      }),
  };
  for (size_t i = 0; i < malformed.size(); ++i) {
    FileSummary full;
    EXPECT_EQ(DecodeFileMetaData(malformed[i].data(), malformed[i].size(), &full, nullptr), Status::kMalformed) << i;
    const Outline o = DecodeOutline(malformed[i], 1);
    EXPECT_EQ(o.outline, Status::kMalformed) << i;
    EXPECT_EQ(o.summary.error_offset, full.error_offset) << i;
  }
}

// The footer bytes of a Parquet file (before its length and PAR1).
bool FooterOf(const std::vector<uint8_t>& file, std::vector<uint8_t>* footer) {
  if (file.size() < 12) return false;
  const size_t n = file.size();
  const uint32_t length = static_cast<uint32_t>(file[n - 8]) | static_cast<uint32_t>(file[n - 7]) << 8 |
                          static_cast<uint32_t>(file[n - 6]) << 16 | static_cast<uint32_t>(file[n - 5]) << 24;
  if (length > n - 8) return false;
  footer->assign(file.end() - 8 - static_cast<std::ptrdiff_t>(length), file.end() - 8);
  return true;
}

// --- The outline pass in parts over windows of a footer (DecodeFooterPass), as
// js/footer/windowed-outline.js runs it: it must give exactly what the outline pass gives.

// `groups` row groups of the two columns of TwoColumnFooter, each with its own offsets.
std::vector<uint8_t> ManyRowGroupFooter(int groups) {
  Compact c;
  c.I32(1, 1);
  c.List(2, kStruct, 3);
  SchemaElement(&c, "schema", -1, -1, 2);
  c.End();
  SchemaElement(&c, "id", kInt64, kRequired, -1);
  c.End();
  SchemaElement(&c, "name", kByteArray, kOptional, -1);
  c.End();
  c.I64(3, 3 * groups);
  c.List(4, kStruct, static_cast<uint64_t>(groups));
  for (int g = 0; g < groups; ++g) {
    const int64_t base = 4 + 1000 * g;
    c.Element();
    c.List(1, kStruct, 2);
    c.Element();
    c.I64(2, base);
    ColumnMetaData(&c, kInt64, "id", base, -1, base + 500, 40 + g);
    c.End();
    c.Element();
    c.I64(2, base + 100);
    ColumnMetaData(&c, kByteArray, "name", base + 150, base + 100, g % 2 ? base + 700 : -1, g % 2 ? 64 : -1);
    c.End();
    c.I64(2, 240);
    c.I64(3, 3);
    c.End();
  }
  c.String(6, "pb windowed test");
  c.List(7, kStruct, 2);
  for (int i = 0; i < 2; ++i) {
    c.Element();
    c.Struct(1);
    c.End();
    c.End();
  }
  c.End();
  return c.bytes;
}

// The parts over windows of `window` bytes (widened while one holds no whole row group), as the JS runs them.
Outline DecodeWindowed(const std::vector<uint8_t>& footer, size_t window, int64_t groups_per_window) {
  Outline o;
  const size_t n = footer.size();
  size_t head = window;
  // The counts and the head from the first window (widened until they fit).
  for (;; head *= 2) {
    const size_t size = std::min(head, n);
    o.counts = DecodeFileMetaDataCounts(footer.data(), size, &o.counted);
    if (ok(o.counts) || size == n) break;
  }
  if (!ok(o.counts)) return o;
  o.schema.resize(static_cast<size_t>(o.counted.schema_count));
  FileMetaDataOutput head_out{o.schema.data()};
  head_out.schema_capacity = o.counted.schema_count;
  for (;; head *= 2) {
    const size_t size = std::min(head, n);
    o.outline = DecodeFooterPass(kFooterHead, footer.data(), size, 0, &o.summary, &head_out);
    if (ok(o.outline) || size == n) break;
  }
  if (!ok(o.outline)) return o;
  const int32_t total_groups = o.summary.row_group_count;
  const FileSummary head_summary = o.summary;
  size_t at = static_cast<size_t>(o.summary.error_offset);
  int64_t columns = 0;  // the leaves: a row group has a chunk for each
  for (size_t i = 1; i < o.schema.size(); ++i) columns += o.schema[i].num_children > 0 ? 0 : 1;
  std::vector<RowGroupRecord> groups(static_cast<size_t>(groups_per_window));
  std::vector<ChunkRecord> chunks(static_cast<size_t>(groups_per_window * columns));
  std::vector<ChunkSpan> spans(chunks.size());
  for (int32_t done = 0; done < total_groups;) {
    FileMetaDataOutput out{nullptr, groups.data(), chunks.data()};
    out.chunk_spans = spans.data();
    out.row_group_capacity = std::min<int64_t>(groups_per_window, total_groups - done);
    out.chunk_capacity = out.row_group_capacity * columns;
    for (size_t size = window;; size *= 2) {
      const size_t end = std::min(at + size, n);
      o.outline = DecodeFooterPass(kFooterRowGroups, footer.data() + at, end - at, static_cast<int64_t>(at), &o.summary, &out);
      if (!ok(o.outline)) return o;
      if (o.summary.row_group_count > 0) break;
      if (end == n) {
        o.outline = Status::kMalformed;
        return o;
      }
    }
    const auto decoded = static_cast<size_t>(o.summary.row_group_count);
    if (o.summary.chunk_count != static_cast<int32_t>(decoded * columns)) {
      o.outline = Status::kMalformed;
      return o;
    }
    o.row_groups.insert(o.row_groups.end(), groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(decoded));
    o.chunks.insert(o.chunks.end(), chunks.begin(), chunks.begin() + static_cast<std::ptrdiff_t>(decoded * columns));
    o.spans.insert(o.spans.end(), spans.begin(), spans.begin() + static_cast<std::ptrdiff_t>(decoded * columns));
    done += static_cast<int32_t>(decoded);
    at = static_cast<size_t>(o.summary.error_offset);
  }
  std::vector<int32_t> orders(static_cast<size_t>(o.counted.schema_count));
  FileMetaDataOutput tail_out{};
  tail_out.column_orders = orders.data();
  tail_out.column_order_capacity = o.counted.schema_count;
  o.outline = DecodeFooterPass(kFooterTail, footer.data() + at, n - at, static_cast<int64_t>(at), &o.summary, &tail_out);
  o.summary.version = head_summary.version;
  o.summary.num_rows = head_summary.num_rows;
  o.summary.schema_count = head_summary.schema_count;
  o.summary.row_group_count = total_groups;
  o.summary.chunk_count = static_cast<int32_t>(o.chunks.size());
  return o;
}

void ExpectWindowedEqualsOutline(const std::vector<uint8_t>& footer, size_t window, int64_t groups_per_window, const std::string& what) {
  FileSummary full;
  ASSERT_EQ(DecodeFileMetaData(footer.data(), footer.size(), &full, nullptr), Status::kOk) << what;
  const Outline whole = DecodeOutline(footer, full.chunk_count);
  ASSERT_EQ(whole.outline, Status::kOk) << what;
  const Outline parts = DecodeWindowed(footer, window, groups_per_window);
  ASSERT_EQ(parts.outline, Status::kOk) << what << ", window " << window;
  EXPECT_EQ(parts.summary.version, whole.summary.version) << what;
  EXPECT_EQ(parts.summary.num_rows, whole.summary.num_rows) << what;
  EXPECT_EQ(parts.summary.schema_count, whole.summary.schema_count) << what;
  EXPECT_EQ(parts.summary.row_group_count, whole.summary.row_group_count) << what;
  EXPECT_EQ(parts.summary.chunk_count, whole.summary.chunk_count) << what;
  EXPECT_EQ(parts.summary.created_by_offset, whole.summary.created_by_offset) << what;
  EXPECT_EQ(parts.summary.created_by_length, whole.summary.created_by_length) << what;
  EXPECT_EQ(parts.summary.column_order_count, whole.summary.column_order_count) << what;
  EXPECT_EQ(parts.summary.has_encryption_algorithm, whole.summary.has_encryption_algorithm) << what;
  ASSERT_EQ(parts.schema.size(), whole.schema.size()) << what;
  for (size_t i = 0; i < whole.schema.size(); ++i) EXPECT_EQ(std::memcmp(&parts.schema[i], &whole.schema[i], sizeof(SchemaRecord)), 0) << what;
  ASSERT_EQ(parts.row_groups.size(), whole.row_groups.size()) << what;
  for (size_t g = 0; g < whole.row_groups.size(); ++g) {
    EXPECT_EQ(std::memcmp(&parts.row_groups[g], &whole.row_groups[g], sizeof(RowGroupRecord)), 0) << what << ": row group " << g;
  }
  ASSERT_EQ(parts.chunks.size(), static_cast<size_t>(whole.summary.chunk_count)) << what;
  for (size_t k = 0; k < parts.chunks.size(); ++k) {
    EXPECT_EQ(std::memcmp(&parts.chunks[k], &whole.chunks[k], sizeof(ChunkRecord)), 0) << what << ": chunk " << k;
    EXPECT_EQ(std::memcmp(&parts.spans[k], &whole.spans[k], sizeof(ChunkSpan)), 0) << what << ": span " << k;
  }
}

TEST(FileMetaDataWindowed, PartsOverAnyWindowGiveTheOutline) {
  const std::vector<uint8_t> footer = ManyRowGroupFooter(9);
  for (size_t window : {size_t{1}, size_t{16}, size_t{100}, size_t{333}, footer.size()}) {
    for (int64_t per_window : {1, 2, 4, 100}) ExpectWindowedEqualsOutline(footer, window, per_window, "nine row groups");
  }
}

TEST(FileMetaDataWindowed, TheHeadTakesOnlyVersionSchemaAndNumRows) {
  size_t created_by_at = 0;
  std::vector<uint8_t> footer = TwoColumnFooter(&created_by_at);
  ExpectWindowedEqualsOutline(footer, 8, 1, "two columns");
  // created_by before row_groups: legal Thrift, no writer's order; the head refuses it (the caller then
  // decodes the footer whole).
  Compact c;
  c.I32(1, 1);
  c.List(2, kStruct, 2);
  SchemaElement(&c, "schema", -1, -1, 1);
  c.End();
  SchemaElement(&c, "id", kInt64, kRequired, -1);
  c.End();
  c.I64(3, 0);
  c.String(6, "early");
  c.Field(kList, 4);
  c.ListHeader(kStruct, 0);
  c.End();
  std::vector<SchemaRecord> schema(2);
  FileMetaDataOutput out{schema.data()};
  out.schema_capacity = 2;
  FileSummary summary;
  EXPECT_EQ(DecodeFooterPass(kFooterHead, c.bytes.data(), c.bytes.size(), 0, &summary, &out), Status::kMalformed);
  FileSummary whole;
  EXPECT_EQ(DecodeFileMetaData(c.bytes.data(), c.bytes.size(), &whole, nullptr), Status::kOk);
}

TEST(FileMetaDataWindowed, ARowGroupCutByTheWindowEndsThePartWithoutError) {
  const std::vector<uint8_t> footer = ManyRowGroupFooter(3);
  std::vector<SchemaRecord> schema(3);
  FileMetaDataOutput head{schema.data()};
  head.schema_capacity = 3;
  FileSummary summary;
  ASSERT_EQ(DecodeFooterPass(kFooterHead, footer.data(), footer.size(), 0, &summary, &head), Status::kOk);
  EXPECT_EQ(summary.row_group_count, 3);
  const auto first = static_cast<size_t>(summary.error_offset);
  std::vector<RowGroupRecord> groups(3);
  std::vector<ChunkRecord> chunks(6);
  std::vector<ChunkSpan> spans(6);
  FileMetaDataOutput out{nullptr, groups.data(), chunks.data()};
  out.chunk_spans = spans.data();
  out.row_group_capacity = 3;
  out.chunk_capacity = 6;
  // Whole: three row groups, ending where the tail starts.
  ASSERT_EQ(DecodeFooterPass(kFooterRowGroups, footer.data() + first, footer.size() - first, static_cast<int64_t>(first), &summary, &out), Status::kOk);
  EXPECT_EQ(summary.row_group_count, 3);
  EXPECT_EQ(summary.chunk_count, 6);
  const auto tail = static_cast<size_t>(summary.error_offset);
  // One byte short of the third: two, and the third starts where the part stopped.
  const size_t third = static_cast<size_t>(spans[4].offset) - 1;  // inside the third row group's list header
  ASSERT_EQ(DecodeFooterPass(kFooterRowGroups, footer.data() + first, tail - 1 - first, static_cast<int64_t>(first), &summary, &out), Status::kOk);
  EXPECT_EQ(summary.row_group_count, 2);
  EXPECT_EQ(summary.chunk_count, 4);
  EXPECT_LE(static_cast<size_t>(summary.error_offset), third);
}

TEST(FileMetaDataLazy, LazyChunksEqualTheFullDecodeOnParquetTestingFiles) {
  // Other writers' footers (parquet-mr, Arrow, Impala): statistics, encoding stats, page indexes, filters.
  const char* files[] = {"alltypes_plain.parquet", "alltypes_tiny_pages.parquet", "alltypes_dictionary.parquet",
                         "data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet",
                         "nan_in_stats.parquet"};
  for (const char* name : files) {
    std::vector<uint8_t> file, footer;
    PB_READ_FIXTURE_OR_SKIP(std::string("parquet-testing/") + name, &file);
    ASSERT_TRUE(FooterOf(file, &footer)) << name;
    ExpectLazyEqualsFull(footer, name);
  }
}

TEST(FileMetaDataWindowed, PartsGiveTheOutlineOnParquetTestingFiles) {
  const char* files[] = {"alltypes_plain.parquet", "alltypes_tiny_pages.parquet", "data_index_bloom_encoding_stats.parquet",
                         "nan_in_stats.parquet"};
  for (const char* name : files) {
    std::vector<uint8_t> file, footer;
    PB_READ_FIXTURE_OR_SKIP(std::string("parquet-testing/") + name, &file);
    ASSERT_TRUE(FooterOf(file, &footer)) << name;
    for (size_t window : {size_t{32}, size_t{500}, footer.size()}) ExpectWindowedEqualsOutline(footer, window, 1, name);
  }
}

}  // namespace
}  // namespace pb
