// The outline pass's ColumnChunk reader (see chunk_outline.h). Its own translation unit, compiled for
// speed, while file_metadata.cc (cold once this takes the big footers' chunks) is compiled for size.
#include "chunk_outline.h"

#include <cstdint>

namespace pb {

namespace {

using thrift::WireType;

// ReadColumnMetaData of the outline pass, on the chunk's FastCursor.
bool OutlineColumnMetaData(thrift::FastCursor* c, ChunkRecord* rec) {
  int16_t last_id = 0;
  for (;;) {
    uint8_t type;
    int16_t id;
    if (!c->FieldHeader(&type, &id, &last_id)) return false;
    if (type == 0) return true;
    const bool is_int = type == static_cast<uint8_t>(WireType::kI32) || type == static_cast<uint8_t>(WireType::kI64) ||
                        type == static_cast<uint8_t>(WireType::kI16) || type == static_cast<uint8_t>(WireType::kByte);
    // What to do with the field: read an integer into `field`, read one to check it (`checked`: num_values,
    // which must be an integer, and codec, an int32 when an integer, both recorded per column later), or
    // skip it (encodings, statistics, encoding_stats, the rest, and foreign fields of another wire type).
    double* field = nullptr;
    bool checked = false;
    switch (id) {
      case 1: field = &rec->physical_type; break;
      case 5: checked = true; break;
      case 7: field = &rec->total_compressed_size; break;
      case 9: field = &rec->data_page_offset; break;
      case 4: checked = is_int; break;
      case 11: if (is_int) field = &rec->dictionary_page_offset; break;
      case 14: if (is_int) field = &rec->bloom_offset; break;
      case 15: if (is_int) field = &rec->bloom_length; break;
      default: break;
    }
    if (field == nullptr && !checked) {
      if (!c->Skip(type)) return false;
      continue;
    }
    int64_t v;
    if (!c->Int(type, &v)) return false;
    if (field != nullptr) *field = static_cast<double>(v);
    if (id == 4 && (v < INT32_MIN || v > INT32_MAX)) return false;
  }
}

}  // namespace

bool OutlineColumnChunk(thrift::FastCursor* cursor, const uint8_t* base, int64_t bias, ChunkRecord* rec) {
  thrift::FastCursor& c = *cursor;
  uint32_t flags = 0;
  int16_t last_id = 0;
  for (;;) {
    uint8_t type;
    int16_t id;
    if (!c.FieldHeader(&type, &id, &last_id)) return false;
    if (type == 0) break;
    if (id == 1) {  // file_path
      const uint8_t* text;
      uint64_t length;
      if (type != static_cast<uint8_t>(WireType::kBinary) || !c.Binary(&text, &length)) return false;
      if (length > INT32_MAX || static_cast<int64_t>(text - base) + bias > INT32_MAX) return false;
      if (length > 0) flags |= kChunkExternalFile;
    } else if (id == 3) {
      flags |= kChunkHasMetaData;
      if (type != static_cast<uint8_t>(WireType::kStruct) || !OutlineColumnMetaData(&c, rec)) return false;
    } else if (id >= 4 && id <= 7) {
      // offset_index_offset, offset_index_length, column_index_offset, column_index_length; the lengths
      // are int32s, recorded per column later.
      int64_t v;
      if (!c.Int(type, &v)) return false;
      if (id == 4) rec->offset_index_offset = static_cast<double>(v);
      if (id == 6) rec->column_index_offset = static_cast<double>(v);
      if ((id == 5 || id == 7) && (v < INT32_MIN || v > INT32_MAX)) return false;
    } else {
      if (id == 8) flags |= kChunkHasCryptoMetaData;
      if (id == 9) flags |= kChunkEncryptedMetaData;
      if (!c.Skip(type)) return false;
    }
  }
  rec->flags = flags;
  return true;
}

}  // namespace pb
