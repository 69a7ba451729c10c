// A lean FileMetaData decoder (parquet.thrift FileMetaData/SchemaElement/RowGroup/ColumnChunk/
// ColumnMetaData): it keeps only what probing needs — schema, row counts, bloom filter offsets/lengths
// and the offsets that bound them — and skips statistics, encodings and key/value metadata unread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "abi.h"
#include "status.h"

namespace pb {

// The records below are declared through the ABI (src/abi.h): js/footer.js reads each of them, field by
// field, at the offsets the module describes.

// One SchemaElement. Strings are referenced into the footer bytes (offset/length), never copied.
// JS copies these as int32 words, so every field is an int32.
#define PB_SCHEMA_RECORD_FIELDS(X)                                                                        \
  X(int32_t, name_offset, 0)                                                                              \
  X(int32_t, name_length, 0)                                                                              \
  X(int32_t, type, -1)           /* parquet.thrift Type, -1 for groups */                                 \
  X(int32_t, type_length, -1)                                                                             \
  X(int32_t, repetition, -1)     /* FieldRepetitionType */                                                \
  X(int32_t, num_children, -1)   /* -1 when absent (a leaf) */                                            \
  X(int32_t, converted_type, -1) /* ConvertedType */                                                      \
  X(int32_t, scale, -1)                                                                                   \
  X(int32_t, precision, -1)                                                                               \
  X(int32_t, field_id, -1)                                                                                \
  X(int32_t, logical_kind, 0)    /* LogicalType union member id (1 STRING … 18 GEOGRAPHY), 0 = none */    \
  X(int32_t, logical_a, -1)      /* DECIMAL scale | TIME/TIMESTAMP unit (1 MILLIS, 2 MICROS, 3 NANOS) | INTEGER bitWidth */ \
  X(int32_t, logical_b, -1)      /* DECIMAL precision | TIME/TIMESTAMP isAdjustedToUTC | INTEGER isSigned */ \
  X(int32_t, reserved, 0)
struct SchemaRecord {
  PB_SCHEMA_RECORD_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(SchemaRecord, PB_SCHEMA_RECORD_FIELDS)

// One ColumnChunk. Offsets are doubles so JS reads them directly (every file offset < 2^53); JS copies
// these as float64 words, so every field is a double.
#define PB_CHUNK_RECORD_FIELDS(X)       \
  X(double, bloom_offset, -1)           \
  X(double, bloom_length, -1)           \
  X(double, data_page_offset, -1)       \
  X(double, dictionary_page_offset, -1) \
  X(double, column_index_offset, -1)    \
  X(double, offset_index_offset, -1)    \
  X(double, total_compressed_size, -1)  \
  X(double, physical_type, -1)          \
  X(double, flags, 0) /* ChunkFlag bits */
struct ChunkRecord {
  PB_CHUNK_RECORD_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(ChunkRecord, PB_CHUNK_RECORD_FIELDS)

#define PB_CHUNK_FLAG_VALUES(X)                                                                      \
  X(kChunkHasMetaData, 1)                                                                            \
  X(kChunkEncryptedMetaData, 2) /* encrypted_column_metadata: this column's metadata is unreadable */ \
  X(kChunkHasCryptoMetaData, 4)                                                                      \
  X(kChunkExternalFile, 8)      /* file_path set: the chunk lives in another file */
enum ChunkFlag : uint32_t { PB_CHUNK_FLAG_VALUES(PB_ABI_DECLARE_ENUMERATOR) };
PB_ABI_DESCRIBE_ENUM(ChunkFlag, PB_CHUNK_FLAG_VALUES)

#define PB_ROW_GROUP_RECORD_FIELDS(X) \
  X(double, num_rows, 0)              \
  X(double, num_columns, 0)
struct RowGroupRecord {
  PB_ROW_GROUP_RECORD_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(RowGroupRecord, PB_ROW_GROUP_RECORD_FIELDS)

#define PB_FILE_SUMMARY_FIELDS(X)                                                         \
  X(int32_t, version, 0)                                                                  \
  X(int32_t, schema_count, 0)                                                             \
  X(int32_t, row_group_count, 0)                                                          \
  X(int32_t, chunk_count, 0)                                                              \
  X(double, num_rows, 0)                                                                  \
  X(int32_t, created_by_offset, -1)                                                       \
  X(int32_t, created_by_length, 0)                                                        \
  X(int32_t, has_encryption_algorithm, 0) /* plaintext footer with encrypted columns */   \
  X(int32_t, error_offset, 0)             /* where decoding stopped, for error messages */
struct FileSummary {
  PB_FILE_SUMMARY_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(FileSummary, PB_FILE_SUMMARY_FIELDS)

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
