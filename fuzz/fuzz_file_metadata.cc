// Fuzzes DecodeFileMetaData, the footer decoder: pass one counts, pass two fills arrays of exactly those
// counts (heap blocks AddressSanitizer bounds, so a record written past a count is caught). The passes
// must agree, and every reference they return (names, created_by) must lie inside the footer bytes. The
// path js/footer/footer.js takes (counting pass, outline pass, chunks decoded from their spans) must agree too.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "file_metadata.h"
#include "fuzz_input.h"

using namespace pb;

namespace {

bool SameSummary(const FileSummary& a, const FileSummary& b) {
  return a.version == b.version && a.schema_count == b.schema_count && a.row_group_count == b.row_group_count &&
         a.chunk_count == b.chunk_count && std::memcmp(&a.num_rows, &b.num_rows, sizeof a.num_rows) == 0 &&
         a.created_by_offset == b.created_by_offset && a.created_by_length == b.created_by_length &&
         a.has_encryption_algorithm == b.has_encryption_algorithm && a.error_offset == b.error_offset &&
         a.column_order_count == b.column_order_count;
}

bool InsideFooter(int32_t offset, int32_t length, size_t size) {
  return offset >= 0 && length >= 0 && static_cast<uint64_t>(offset) + static_cast<uint64_t>(length) <= size;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FileSummary first;
  const Status status = DecodeFileMetaData(data, size, &first, nullptr);
  FUZZ_CHECK(first.error_offset >= 0 && static_cast<size_t>(first.error_offset) <= size);
  if (!ok(status)) {
    FUZZ_CHECK(status == Status::kMalformed);
    return 0;
  }
  FUZZ_CHECK(first.schema_count > 0 && first.row_group_count >= 0 && first.chunk_count >= 0);
  FUZZ_CHECK(static_cast<size_t>(first.schema_count) <= size && static_cast<size_t>(first.chunk_count) <= size);
  if (first.created_by_offset >= 0) FUZZ_CHECK(InsideFooter(first.created_by_offset, first.created_by_length, size));

  // new T[0] is a valid, non-null, zero-byte block: writing even one record into it is caught.
  auto* schema = new SchemaRecord[first.schema_count];
  auto* row_groups = new RowGroupRecord[first.row_group_count];
  auto* chunks = new ChunkRecord[first.chunk_count];
  auto* indexes = new ChunkIndexRecord[first.chunk_count];
  FUZZ_CHECK(first.column_order_count >= -1 && (first.column_order_count < 0 || static_cast<size_t>(first.column_order_count) <= size));
  auto* column_orders = new int32_t[first.column_order_count > 0 ? first.column_order_count : 0];
  FileMetaDataOutput out{schema, row_groups, chunks, indexes, column_orders};
  FileSummary second;
  const Status again = DecodeFileMetaData(data, size, &second, &out);
  FUZZ_CHECK(ok(again));
  FUZZ_CHECK(SameSummary(first, second));

  for (int32_t i = 0; i < first.schema_count; ++i) {
    FUZZ_CHECK(InsideFooter(schema[i].name_offset, schema[i].name_length, size));
  }
  double columns = 0;
  for (int32_t g = 0; g < first.row_group_count; ++g) {
    FUZZ_CHECK(row_groups[g].num_columns >= 0);
    columns += row_groups[g].num_columns;
  }
  // Chunks are row-group-major: JS finds row group g's chunks by summing the counts before it.
  FUZZ_CHECK(columns == first.chunk_count);
  for (int32_t c = 0; c < first.chunk_count; ++c) {
    const double flags = chunks[c].flags;
    FUZZ_CHECK(flags >= 0 && flags <= 15 && flags == static_cast<double>(static_cast<uint32_t>(flags)));
    // Every bound the JS statistics reader slices out of the footer lies inside it.
    const ChunkIndexRecord& x = indexes[c];
    if (x.min_value_offset >= 0) FUZZ_CHECK(InsideFooter(x.min_value_offset, x.min_value_length, size));
    if (x.max_value_offset >= 0) FUZZ_CHECK(InsideFooter(x.max_value_offset, x.max_value_length, size));
    if (x.min_offset >= 0) FUZZ_CHECK(InsideFooter(x.min_offset, x.min_length, size));
    if (x.max_offset >= 0) FUZZ_CHECK(InsideFooter(x.max_offset, x.max_length, size));
    FUZZ_CHECK(x.flags >= 0 && x.flags < 512);
  }

  // The big-footer path (js/footer/footer.js, js/footer/chunk-indexes.js): the counting pass agrees, the outline pass
  // into arrays of exactly these counts gives the same chunk records, and each chunk decoded again from
  // its span alone gives the same chunk and index records.
  FileSummary counted;
  FUZZ_CHECK(ok(DecodeFileMetaDataCounts(data, size, &counted)));
  FUZZ_CHECK(counted.schema_count == first.schema_count && counted.row_group_count == first.row_group_count);
  auto* outline_chunks = new ChunkRecord[first.chunk_count];
  auto* spans = new ChunkSpan[first.chunk_count];
  FileMetaDataOutput outline{schema, row_groups, outline_chunks, nullptr, column_orders};
  outline.chunk_spans = spans;
  outline.schema_capacity = first.schema_count;
  outline.row_group_capacity = first.row_group_count;
  outline.chunk_capacity = first.chunk_count;
  outline.column_order_capacity = first.column_order_count > 0 ? first.column_order_count : 0;
  FileSummary third;
  FUZZ_CHECK(ok(DecodeFileMetaData(data, size, &third, &outline)));
  FUZZ_CHECK(SameSummary(first, third));
  for (int32_t c = 0; c < first.chunk_count; ++c) {
    FUZZ_CHECK(std::memcmp(&outline_chunks[c], &chunks[c], sizeof(ChunkRecord)) == 0);
    FUZZ_CHECK(InsideFooter(spans[c].offset, spans[c].length, size));
    ChunkRecord lazy_chunk;
    ChunkIndexRecord lazy_index;
    int32_t failed = 0;
    FUZZ_CHECK(ok(DecodeColumnChunks(data + spans[c].offset, static_cast<size_t>(spans[c].length), &spans[c], 1, &lazy_chunk,
                                     &lazy_index, &failed)));
    FUZZ_CHECK(std::memcmp(&lazy_chunk, &chunks[c], sizeof(ChunkRecord)) == 0);
    FUZZ_CHECK(std::memcmp(&lazy_index, &indexes[c], sizeof(ChunkIndexRecord)) == 0);
  }
  delete[] spans;
  delete[] outline_chunks;
  delete[] indexes;
  delete[] column_orders;
  delete[] schema;
  delete[] row_groups;
  delete[] chunks;
  return 0;
}
