// The outline pass's reader of one ColumnChunk (parquet.thrift ColumnChunk, ColumnMetaData) on a
// thrift::FastCursor: what the outline pass of DecodeFileMetaData records for a chunk (its ChunkRecord;
// statistics, encodings and encoding_stats skipped unread), for the common shapes only.
#pragma once

#include <cstdint>

#include "file_metadata.h"
#include "thrift_compact.h"

namespace pb {

// Reads the ColumnChunk at the cursor into *rec (which must start as ChunkRecord{}), recording binary
// references as footer offsets (`base` is where the input starts, `bias` where that is in the footer).
// false when the cursor declines a shape or the bytes do not decode: the caller resets *rec and reads the
// chunk again with the general decoder, which accepts whatever this accepts, with the same record.
bool OutlineColumnChunk(thrift::FastCursor* cursor, const uint8_t* base, int64_t bias, ChunkRecord* rec);

}  // namespace pb
