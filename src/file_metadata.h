// A lean FileMetaData decoder (parquet.thrift FileMetaData/SchemaElement/RowGroup/ColumnChunk/
// ColumnMetaData/Statistics/ColumnOrder): it keeps only what probing needs — schema, row counts, bloom
// filter offsets/lengths and the offsets that bound them, and each chunk's index description (statistics
// referenced into the footer bytes, counts, encodings, page index lengths) — and skips the rest unread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "status.h"

namespace pb {

// One SchemaElement. Strings are referenced into the footer bytes (offset/length), never copied.
struct SchemaRecord {
  int32_t name_offset = 0;
  int32_t name_length = 0;
  int32_t type = -1;             // parquet.thrift Type, -1 for groups
  int32_t type_length = -1;
  int32_t repetition = -1;       // FieldRepetitionType
  int32_t num_children = -1;     // -1 when absent (a leaf)
  int32_t converted_type = -1;   // ConvertedType
  int32_t scale = -1;
  int32_t precision = -1;
  int32_t field_id = -1;
  int32_t logical_kind = 0;      // LogicalType union member id (1 STRING … 18 GEOGRAPHY), 0 = none
  int32_t logical_a = -1;        // DECIMAL scale | TIME/TIMESTAMP unit (1 MILLIS, 2 MICROS, 3 NANOS) | INTEGER bitWidth
  int32_t logical_b = -1;        // DECIMAL precision | TIME/TIMESTAMP isAdjustedToUTC | INTEGER isSigned
  int32_t reserved = 0;
};
static_assert(sizeof(SchemaRecord) == 14 * 4, "JS reads SchemaRecord as 14 int32 words");

// One ColumnChunk. Offsets are doubles so JS reads them directly (every file offset < 2^53).
struct ChunkRecord {
  double bloom_offset = -1;
  double bloom_length = -1;
  double data_page_offset = -1;
  double dictionary_page_offset = -1;
  double column_index_offset = -1;
  double offset_index_offset = -1;
  double total_compressed_size = -1;
  double physical_type = -1;
  double flags = 0;  // ChunkFlag bits
};
static_assert(sizeof(ChunkRecord) == 9 * 8, "JS reads ChunkRecord as 9 float64 words");

enum ChunkFlag : uint32_t {
  kChunkHasMetaData = 1,
  kChunkEncryptedMetaData = 2,  // encrypted_column_metadata: this column's metadata is unreadable here
  kChunkHasCryptoMetaData = 4,
  kChunkExternalFile = 8,       // file_path set: the chunk lives in another file
};

enum IndexFlag : uint32_t {
  kIndexHasStatistics = 1,
  kIndexMinValueExact = 2,        // Statistics.is_min_value_exact = true
  kIndexMaxValueExact = 4,        // Statistics.is_max_value_exact = true
  kIndexHasEncodingStats = 8,     // ColumnMetaData.encoding_stats present
  kIndexDataPagesDictionary = 16, // encoding_stats lists data pages, every one dictionary-encoded
  kIndexHasEncodings = 32,        // ColumnMetaData.encodings present
  // An optional field with another wire type than parquet.thrift gives it (a writer's own extension
  // reusing the id): its value is skipped, and the index it would describe is not to be trusted.
  kIndexForeignBloomField = 64,       // bloom_filter_offset / bloom_filter_length
  kIndexForeignStatisticsField = 128,
  kIndexForeignDictionaryField = 256, // dictionary_page_offset / encodings / encoding_stats
};

// One ColumnChunk's index description (parquet.thrift Statistics, ColumnMetaData, ColumnChunk 4–7).
// Binary bounds are referenced into the footer bytes (offset/length, -1 when absent), never copied.
struct ChunkIndexRecord {
  double num_values = -1;       // ColumnMetaData.num_values (nulls included)
  double null_count = -1;       // Statistics.null_count
  double distinct_count = -1;
  int32_t min_value_offset = -1;
  int32_t min_value_length = -1;
  int32_t max_value_offset = -1;
  int32_t max_value_length = -1;
  int32_t min_offset = -1;      // deprecated Statistics.min (signed order of the physical type)
  int32_t min_length = -1;
  int32_t max_offset = -1;      // deprecated Statistics.max
  int32_t max_length = -1;
  int32_t flags = 0;            // IndexFlag bits
  int32_t encodings = 0;        // bit e set: Encoding e is listed in ColumnMetaData.encodings (e < 31)
  int32_t codec = -1;           // CompressionCodec
  int32_t column_index_length = -1;
  int32_t offset_index_length = -1;
  int32_t reserved = 0;
};
static_assert(sizeof(ChunkIndexRecord) == 3 * 8 + 14 * 4, "JS reads ChunkIndexRecord as 3 float64 + 14 int32 words");

struct RowGroupRecord {
  double num_rows = 0;
  double num_columns = 0;
};

struct FileSummary {
  int32_t version = 0;
  int32_t schema_count = 0;
  int32_t row_group_count = 0;
  int32_t chunk_count = 0;
  double num_rows = 0;
  int32_t created_by_offset = -1;
  int32_t created_by_length = 0;
  int32_t has_encryption_algorithm = 0;  // plaintext footer with encrypted columns
  int32_t error_offset = 0;              // where decoding stopped, for error messages
  int32_t column_order_count = -1;       // FileMetaData.column_orders entries, -1 when the field is absent
  int32_t reserved = 0;
};

static_assert(sizeof(FileSummary) == 48 && offsetof(FileSummary, num_rows) == 16 &&
                  offsetof(FileSummary, created_by_offset) == 24 && offsetof(FileSummary, column_order_count) == 40,
              "JS reads FileSummary at these offsets (js/footer.js)");

// Where pass two writes; each array holds the counts pass one found.
struct FileMetaDataOutput {
  SchemaRecord* schema = nullptr;
  RowGroupRecord* row_groups = nullptr;
  ChunkRecord* chunks = nullptr;  // row-group-major
  ChunkIndexRecord* indexes = nullptr;  // parallel to chunks; optional
  int32_t* column_orders = nullptr;     // column_order_count entries: ColumnOrder member id (1 TYPE_ORDER), 0 none; optional
};

// Decodes serialized FileMetaData. With out == nullptr only counts and validates (pass one); then
// call again with arrays sized from summary (pass two). kMalformed on anything undecodable or missing a
// required field this reader needs; list counts are checked against the bytes left before any loop.
Status DecodeFileMetaData(const uint8_t* data, size_t size, FileSummary* summary, FileMetaDataOutput* out);

}  // namespace pb
