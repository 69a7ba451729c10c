// A lean FileMetaData decoder (parquet.thrift FileMetaData/SchemaElement/RowGroup/ColumnChunk/
// ColumnMetaData/Statistics/ColumnOrder): it keeps only what probing needs — schema, row counts, bloom
// filter offsets/lengths and the offsets that bound them, and each chunk's index description (statistics
// referenced into the footer bytes, counts, encodings, page index lengths) — and skips the rest unread.
#pragma once

#include <cstddef>
#include <cstdint>

#include "abi.h"
#include "status.h"

namespace pb {

// The records below are declared through the ABI (src/abi.h): js/footer/footer.js reads each of them, field by
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

#define PB_INDEX_FLAG_VALUES(X)                                                                             \
  X(kIndexHasStatistics, 1)                                                                                 \
  X(kIndexMinValueExact, 2)        /* Statistics.is_min_value_exact = true */                                \
  X(kIndexMaxValueExact, 4)        /* Statistics.is_max_value_exact = true */                                \
  X(kIndexHasEncodingStats, 8)     /* ColumnMetaData.encoding_stats present */                               \
  X(kIndexDataPagesDictionary, 16) /* encoding_stats lists data pages, every one dictionary-encoded */       \
  X(kIndexHasEncodings, 32)        /* ColumnMetaData.encodings present */                                    \
  /* An optional field with another wire type than parquet.thrift gives it (a writer's own extension     */ \
  /* reusing the id): its value is skipped, and the index it would describe is not to be trusted.        */ \
  X(kIndexForeignBloomField, 64)       /* bloom_filter_offset / bloom_filter_length */                       \
  X(kIndexForeignStatisticsField, 128)                                                                      \
  X(kIndexForeignDictionaryField, 256) /* dictionary_page_offset / encodings / encoding_stats */
enum IndexFlag : uint32_t { PB_INDEX_FLAG_VALUES(PB_ABI_DECLARE_ENUMERATOR) };
PB_ABI_DESCRIBE_ENUM(IndexFlag, PB_INDEX_FLAG_VALUES)

// One ColumnChunk's index description (parquet.thrift Statistics, ColumnMetaData, ColumnChunk 4–7).
// Binary bounds are referenced into the footer bytes (offset/length, -1 when absent), never copied.
// JS copies these records whole and reads the doubles and the int32s through two views.
#define PB_CHUNK_INDEX_RECORD_FIELDS(X)                                                              \
  X(double, num_values, -1)     /* ColumnMetaData.num_values (nulls included) */                    \
  X(double, null_count, -1)     /* Statistics.null_count */                                         \
  X(double, distinct_count, -1)                                                                     \
  X(int32_t, min_value_offset, -1)                                                                  \
  X(int32_t, min_value_length, -1)                                                                  \
  X(int32_t, max_value_offset, -1)                                                                  \
  X(int32_t, max_value_length, -1)                                                                  \
  X(int32_t, min_offset, -1)    /* deprecated Statistics.min (signed order of the physical type) */ \
  X(int32_t, min_length, -1)                                                                        \
  X(int32_t, max_offset, -1)    /* deprecated Statistics.max */                                     \
  X(int32_t, max_length, -1)                                                                        \
  X(int32_t, flags, 0)          /* IndexFlag bits */                                                \
  X(int32_t, encodings, 0)      /* bit e set: Encoding e is in ColumnMetaData.encodings (e < 31) */ \
  X(int32_t, codec, -1)         /* CompressionCodec */                                              \
  X(int32_t, column_index_length, -1)                                                               \
  X(int32_t, offset_index_length, -1)                                                               \
  X(int32_t, reserved, 0)
struct ChunkIndexRecord {
  PB_CHUNK_INDEX_RECORD_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(ChunkIndexRecord, PB_CHUNK_INDEX_RECORD_FIELDS)

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
  X(int32_t, error_offset, 0)             /* where decoding stopped, for error messages */   \
  X(int32_t, column_order_count, -1)      /* FileMetaData.column_orders entries, -1: absent */ \
  X(int32_t, reserved, 0)
struct FileSummary {
  PB_FILE_SUMMARY_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(FileSummary, PB_FILE_SUMMARY_FIELDS)

// Where one serialized ColumnChunk lies in the footer: [offset, offset + length).
#define PB_CHUNK_SPAN_FIELDS(X) \
  X(int32_t, offset, 0)         \
  X(int32_t, length, 0)
struct ChunkSpan {
  PB_CHUNK_SPAN_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(ChunkSpan, PB_CHUNK_SPAN_FIELDS)

// Where pass two writes; each array holds the counts pass one found, or, where a capacity is given
// (>= 0), that many records: entries past it are counted but not written, and the caller refuses the
// footer when a count exceeds what it allowed for.
struct FileMetaDataOutput {
  SchemaRecord* schema = nullptr;
  RowGroupRecord* row_groups = nullptr;
  ChunkRecord* chunks = nullptr;  // row-group-major
  ChunkIndexRecord* indexes = nullptr;  // parallel to chunks; optional
  int32_t* column_orders = nullptr;     // column_order_count entries: ColumnOrder member id (1 TYPE_ORDER), 0 none; optional
  // Set: the outline pass. Each chunk's span is recorded, and what only its ChunkIndexRecord needs
  // (Statistics, encodings, encoding_stats) is skipped unread, for DecodeColumnChunks to decode later.
  ChunkSpan* chunk_spans = nullptr;
  int64_t schema_capacity = -1;
  int64_t row_group_capacity = -1;
  int64_t chunk_capacity = -1;  // of chunks, indexes and chunk_spans
  int64_t column_order_capacity = -1;
};

// The footer decoder's passes JS runs (DecodeFooterPass): the counting pass, the validating pass one, the
// outline pass whole, or in parts over a footer too big to copy into wasm memory at once, a window of its
// bytes at a time (js/footer/windowed-outline.js).
#define PB_FOOTER_PASS_VALUES(X) \
  X(kFooterCounts, 0)            \
  X(kFooterSummary, 1)           \
  X(kFooterWhole, 2)             \
  X(kFooterHead, 3)              \
  X(kFooterRowGroups, 4)         \
  X(kFooterTail, 5)
enum FooterPass : int32_t { PB_FOOTER_PASS_VALUES(PB_ABI_DECLARE_ENUMERATOR) };
PB_ABI_DESCRIBE_ENUM(FooterPass, PB_FOOTER_PASS_VALUES)

// Decodes serialized FileMetaData. With out == nullptr only counts and validates (pass one); then
// call again with arrays sized from summary (pass two). kMalformed on anything undecodable or missing a
// required field this reader needs; list counts are checked against the bytes left before any loop.
Status DecodeFileMetaData(const uint8_t* data, size_t size, FileSummary* summary, FileMetaDataOutput* out);

// The quick pass one of a big footer: schema_count and row_group_count only, read from the list
// headers, stopping at the row groups once the schema is counted (chunk_count stays 0). The outline
// pass then validates everything, with capacities derived from these counts.
Status DecodeFileMetaDataCounts(const uint8_t* data, size_t size, FileSummary* summary);

// Decodes `count` ColumnChunks whose serialized bytes lie back to back in data (slice k's bytes are
// spans[k].length bytes, after those of the slices before it), each as a whole ColumnChunk, into
// chunks[k] and indexes[k]; binary references are footer offsets (spans[k].offset is where slice k
// begins in the footer). kMalformed, with *failed_slice = k, when slice k does not decode to exactly
// its length.
Status DecodeColumnChunks(const uint8_t* data, size_t size, const ChunkSpan* spans, uint32_t count, ChunkRecord* chunks,
                          ChunkIndexRecord* indexes, int32_t* failed_slice);

// One pass of the footer decoder over `data`, which starts `bias` bytes into the footer: binary
// references and spans are footer offsets, as the whole outline pass records them.
// - kFooterCounts: DecodeFileMetaDataCounts (bias 0; `out` unused).
// - kFooterSummary: DecodeFileMetaData's pass one (bias 0; `out` unused).
// - kFooterWhole: the whole outline pass (bias 0), as DecodeFileMetaData with out->chunk_spans set.
// The parts of the outline pass:
// Together the parts give what the whole pass gives, for the footers writers produce (fields in id
// order); any other shape fails here, and the caller decodes the footer whole, which decides it exactly.
// - kFooterHead: the fields before row_groups, which may only be version, schema and num_rows (the last
//   two required), up to and including the row_groups list header: summary->row_group_count is its
//   count and summary->error_offset where the first row group starts. Writes out->schema.
// - kFooterRowGroups: `data` starts at a row group: as many whole row groups as it holds, at most
//   out->row_group_capacity, into out->row_groups, chunks and chunk_spans from their first entries;
//   summary->row_group_count is how many, chunk_count their chunks, error_offset where the next one
//   starts. The first row group that does not decode in `data` ends the part (kOk): the caller moves the
//   window there, or widens it when it holds none. Leaves the rest of *summary as it was.
// - kFooterTail: `data` starts after the last row group: the fields after row_groups (id 5 and up), to
//   STOP, into a fresh *summary (created_by, column_order_count, has_encryption_algorithm) and
//   out->column_orders.
Status DecodeFooterPass(FooterPass pass, const uint8_t* data, size_t size, int64_t bias, FileSummary* summary,
                        FileMetaDataOutput* out);

}  // namespace pb
