// A lean FileMetaData decoder (parquet.thrift FileMetaData/SchemaElement/RowGroup/ColumnChunk/
// ColumnMetaData): it keeps only what probing needs — schema, row counts, bloom filter offsets/lengths
// and the offsets that bound them — and skips statistics, encodings and key/value metadata unread.
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
};

static_assert(sizeof(FileSummary) == 40 && offsetof(FileSummary, num_rows) == 16 &&
                  offsetof(FileSummary, created_by_offset) == 24,
              "JS reads FileSummary at these offsets (js/footer.js)");

// Where pass two writes; each array holds the counts pass one found.
struct FileMetaDataOutput {
  SchemaRecord* schema = nullptr;
  RowGroupRecord* row_groups = nullptr;
  ChunkRecord* chunks = nullptr;  // row-group-major
};

// Decodes serialized FileMetaData. With out == nullptr only counts and validates (pass one); then
// call again with arrays sized from summary (pass two). kMalformed on anything undecodable or missing a
// required field this reader needs; list counts are checked against the bytes left before any loop.
Status DecodeFileMetaData(const uint8_t* data, size_t size, FileSummary* summary, FileMetaDataOutput* out);

}  // namespace pb
