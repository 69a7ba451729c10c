// Lean FileMetaData decoding (parquet.thrift). Two passes over the same bytes: count, then fill
// caller-sized arrays, so nothing is allocated here and hostile counts cannot trigger huge allocations.
#include "file_metadata.h"

#include "chunk_outline.h"
#include "thrift_compact.h"

namespace pb {

namespace {

using thrift::ForEachField;
using thrift::Reader;
using thrift::WireType;

// A list whose elements are all of wire type `element` and take at least min_element_bytes each: the
// count is checked against the bytes left, so hostile counts are refused before they drive a loop or a
// caller allocation.
bool ReadTypedListHeader(Reader* r, WireType element, uint64_t min_element_bytes, uint64_t* count) {
  uint8_t element_type;
  if (!r->ReadListHeader(&element_type, count)) return false;
  if (*count > 0 && static_cast<WireType>(element_type) != element) return false;
  return *count <= r->remaining() / min_element_bytes && *count <= INT32_MAX;
}

bool ReadStructListHeader(Reader* r, uint64_t min_element_bytes, uint64_t* count) {
  return ReadTypedListHeader(r, WireType::kStruct, min_element_bytes, count);
}

bool ReadBool(WireType type, bool* out) {
  if (type != WireType::kBoolTrue && type != WireType::kBoolFalse) return false;
  *out = type == WireType::kBoolTrue;
  return true;
}

bool ReadInt(Reader* r, WireType type, int64_t* out) {
  if (type == WireType::kI32 || type == WireType::kI16 || type == WireType::kI64) return r->ReadI64(out);
  if (type == WireType::kByte) {
    uint8_t b;
    if (!r->ReadByte(&b)) return false;
    *out = static_cast<int8_t>(b);
    return true;
  }
  return false;
}

bool ReadInt32(Reader* r, WireType type, int32_t* out) {
  int64_t v;
  if (!ReadInt(r, type, &v) || v < INT32_MIN || v > INT32_MAX) return false;
  *out = static_cast<int32_t>(v);
  return true;
}

// A binary/string field: records where it lies in the footer (its offset in the input + bias, for input
// that starts `bias` bytes into the footer) and moves past it.
bool ReadStringRef(Reader* r, WireType type, const uint8_t* base, int64_t bias, int32_t* offset, int32_t* length) {
  const uint8_t* data;
  size_t n;
  if (type != WireType::kBinary || !r->ReadBinary(&data, &n) || n > INT32_MAX) return false;
  const int64_t at = static_cast<int64_t>(data - base) + bias;
  if (at > INT32_MAX) return false;
  *offset = static_cast<int32_t>(at);
  *length = static_cast<int32_t>(n);
  return true;
}

// Whether record i fits the caller's array (capacity < 0: sized from pass one's counts).
bool Fits(uint64_t i, int64_t capacity) { return capacity < 0 || i < static_cast<uint64_t>(capacity); }

enum class Mode { kFull, kCounts, kOutline };

class Decoder {
 public:
  Decoder(const uint8_t* data, size_t size, FileSummary* summary, FileMetaDataOutput* out, Mode mode, int64_t bias = 0)
      : r_(data, size), data_(data), summary_(summary), out_(out), mode_(mode), bias_(bias) {}

  // DecodeFooterPass's kFooterRowGroups: whole row groups while they decode and fit the capacity.
  Status RunRowGroups() {
    int32_t decoded = 0;
    uint64_t chunks = 0;
    size_t end = 0;
    while (decoded < out_->row_group_capacity && r_.remaining() > 0 && read_row_group(this, static_cast<uint32_t>(decoded))) {
      ++decoded;
      chunks = chunk_index_;
      end = r_.position();
    }
    summary_->row_group_count = decoded;
    summary_->chunk_count = static_cast<int32_t>(chunks);
    summary_->error_offset = static_cast<int32_t>(bias_ + static_cast<int64_t>(end));
    return Status::kOk;
  }

  // One whole ColumnChunk (DecodeColumnChunks): true when it decodes and uses up the input exactly.
  bool DecodeOneChunk(ChunkRecord* rec, ChunkIndexRecord* index) {
    return ReadColumnChunk(rec, index) && !r_.failed() && r_.remaining() == 0;
  }

  // The whole FileMetaData, or DecodeFooterPass's head (`head`) or tail (`tail`).
  __attribute__((noinline)) Status Run(bool head = false, bool tail = false) {
    // The tail follows the head's version, schema and num_rows and the row_groups list (field 4).
    bool have_schema = tail, have_row_groups = tail, have_num_rows = tail, have_column_orders = false;
    bool stopped_early = false;
    const bool ok = ForEachField(&r_, [&](WireType type, int16_t id) {
      if ((tail && id <= 4) || (head && id > 4)) return false;
      switch (id) {
        case 1:
          return ReadInt32(&r_, type, &summary_->version);
        // A repeated list field would make pass two write more records than pass one counted (the
        // counts keep the last list, the records come from all of them): refuse it as malformed.
        case 2:
          if (have_schema) return false;
          have_schema = true;
          return type == WireType::kList && ReadSchema();
        case 3: {
          int64_t n;
          have_num_rows = true;
          if (!ReadInt(&r_, type, &n)) return false;
          summary_->num_rows = static_cast<double>(n);
          return true;
        }
        case 4:
          if (have_row_groups) return false;
          have_row_groups = true;
          if ((mode_ == Mode::kCounts && have_schema) || head) {
            // The list header is all the counting pass needs once the schema is counted: stop here.
            // The head of a windowed outline pass stops here too, with the schema and num_rows read.
            if (head && !(have_schema && have_num_rows)) return false;
            uint64_t count;
            if (type != WireType::kList || !ReadStructListHeader(&r_, 2, &count)) return false;
            summary_->row_group_count = static_cast<int32_t>(count);
            stopped_early = true;
            return false;
          }
          return type == WireType::kList && ReadRowGroups();
        case 6:
          return Ref(type, &summary_->created_by_offset, &summary_->created_by_length);
        case 7:
          if (have_column_orders) return false;
          have_column_orders = true;
          return type == WireType::kList && ReadColumnOrders();
        case 8:
          summary_->has_encryption_algorithm = 1;
          return r_.Skip(type);
        default:
          return r_.Skip(type);
      }
    }, tail ? 4 : 0);
    summary_->error_offset = static_cast<int32_t>(bias_ + static_cast<int64_t>(r_.position()));
    if (stopped_early) return summary_->schema_count == 0 ? Status::kMalformed : Status::kOk;
    if (head) return Status::kMalformed;  // no row_groups after the schema and num_rows
    if (!ok || r_.failed()) return Status::kMalformed;
    // (The tail's summary is fresh: the head checked the schema.)
    if (!have_schema || !have_row_groups || !have_num_rows || (!tail && summary_->schema_count == 0)) return Status::kMalformed;
    return Status::kOk;
  }

 private:
  // ColumnOrder is a union; TYPE_ORDER (1) is the only member the spec defines today.
  bool ReadColumnOrders() {
    uint64_t count;
    if (!ReadStructListHeader(&r_, 1, &count)) return false;  // an empty union is just STOP
    summary_->column_order_count = static_cast<int32_t>(count);
    for (uint64_t i = 0; i < count; ++i) {
      int32_t member = 0;
      const bool ok = ForEachField(&r_, [&](WireType type, int16_t id) {
        member = id;
        return r_.Skip(type);
      });
      if (!ok) return false;
      if (out_ != nullptr && out_->column_orders != nullptr && Fits(i, out_->column_order_capacity)) out_->column_orders[i] = member;
    }
    return true;
  }

  bool ReadSchema() {
    uint64_t count;
    // Every element takes at least two bytes (a name field header and STOP).
    if (!ReadStructListHeader(&r_, 2, &count)) return false;
    summary_->schema_count = static_cast<int32_t>(count);
    for (uint64_t i = 0; i < count; ++i) {
      SchemaRecord rec;
      bool have_name = false;
      const bool ok = ForEachField(&r_, [&](WireType type, int16_t id) {
        switch (id) {
          case 1: return ReadInt32(&r_, type, &rec.type);
          case 2: return ReadInt32(&r_, type, &rec.type_length);
          case 3: return ReadInt32(&r_, type, &rec.repetition);
          case 4: have_name = true; return Ref(type, &rec.name_offset, &rec.name_length);
          case 5: return ReadInt32(&r_, type, &rec.num_children);
          case 6: return ReadInt32(&r_, type, &rec.converted_type);
          case 7: return ReadInt32(&r_, type, &rec.scale);
          case 8: return ReadInt32(&r_, type, &rec.precision);
          case 9: return ReadInt32(&r_, type, &rec.field_id);
          case 10: return type == WireType::kStruct && ReadLogicalType(&rec);
          default: return r_.Skip(type);
        }
      });
      if (!ok || !have_name) return false;
      if (out_ != nullptr && Fits(i, out_->schema_capacity)) out_->schema[i] = rec;
    }
    return true;
  }

  bool ReadLogicalType(SchemaRecord* rec) {
    return ForEachField(&r_, [&](WireType type, int16_t id) {
      if (type != WireType::kStruct) return r_.Skip(type);
      rec->logical_kind = id;
      switch (id) {
        case 5:  // DecimalType {1: scale, 2: precision}
          return ForEachField(&r_, [&](WireType t, int16_t f) {
            if (f == 1) return ReadInt32(&r_, t, &rec->logical_a);
            if (f == 2) return ReadInt32(&r_, t, &rec->logical_b);
            return r_.Skip(t);
          });
        case 7:    // TimeType {1: isAdjustedToUTC, 2: unit}
        case 8:    // TimestampType, same layout
          return ForEachField(&r_, [&](WireType t, int16_t f) {
            if (f == 1) {
              bool adjusted;
              if (!ReadBool(t, &adjusted)) return false;
              rec->logical_b = adjusted ? 1 : 0;
              return true;
            }
            if (f == 2 && t == WireType::kStruct) {
              return ForEachField(&r_, [&](WireType ut, int16_t unit) {  // TimeUnit union
                rec->logical_a = unit;
                return r_.Skip(ut);
              });
            }
            return r_.Skip(t);
          });
        case 10:  // IntType {1: bitWidth (i8), 2: isSigned}
          return ForEachField(&r_, [&](WireType t, int16_t f) {
            if (f == 1) return ReadInt32(&r_, t, &rec->logical_a);
            if (f == 2) {
              bool is_signed;
              if (!ReadBool(t, &is_signed)) return false;
              rec->logical_b = is_signed ? 1 : 0;
              return true;
            }
            return r_.Skip(t);
          });
        default:
          return r_.Skip(type);
      }
    });
  }

  bool ReadRowGroups() {
    uint64_t count;
    if (!ReadStructListHeader(&r_, 2, &count)) return false;  // a columns field header and STOP at least
    summary_->row_group_count = static_cast<int32_t>(count);
    for (uint64_t g = 0; g < count; ++g) {
      if (!read_row_group(this, static_cast<uint32_t>(g))) return false;  // count <= INT32_MAX
    }
    return true;
  }

  // One row group, called per row group through read_row_group (below says why).
  static bool ReadRowGroupOf(Decoder* d, uint32_t g) { return d->ReadRowGroup(g); }

  bool ReadRowGroup(uint64_t g) {
    RowGroupRecord rec;
    bool have_columns = false;
    const bool ok = ForEachField(&r_, [&](WireType type, int16_t id) {
      if (id == 1) {
        // Repeated, the chunks of both lists would shift every later row group's columns.
        if (have_columns) return false;
        have_columns = true;
        return type == WireType::kList && ReadColumnChunks(&rec);
      }
      if (id == 3) {
        int64_t n;
        if (!ReadInt(&r_, type, &n)) return false;
        rec.num_rows = static_cast<double>(n);
        return true;
      }
      return r_.Skip(type);
    });
    if (!ok || !have_columns) return false;
    if (out_ != nullptr && Fits(g, out_->row_group_capacity)) out_->row_groups[g] = rec;
    return true;
  }

  // V8 runs a wasm function in baseline code (Liftoff) until it has run a while, then compiles it
  // optimized in the background for its next call: a call that is running never switches. Read in one
  // call, a big footer's row groups all ran in baseline code, about half as fast, in every fresh
  // process. Called once per row group, the later row groups run optimized. Binaryen inlines every
  // function that has one caller, whatever clang was told: the call goes through a pointer it cannot
  // resolve at build time (a volatile load) to stay a call.
  // (A 32-bit index: a 64-bit argument in an indirect call costs the module a legalizing stub.)
  static bool (*volatile read_row_group)(Decoder*, uint32_t);

  bool ReadColumnChunks(RowGroupRecord* group) {
    uint64_t count;
    // Column chunk i belongs to leaf i of the schema (parquet.thrift RowGroup.columns); the caller
    // refuses row groups whose count differs from the leaves, since they cannot be mapped safely.
    if (!ReadStructListHeader(&r_, 1, &count)) return false;
    group->num_columns = static_cast<double>(count);
    for (uint64_t c = 0; c < count; ++c) {
      // Written in place when it fits (a 72-byte copy per chunk was a measurable part of big footers).
      const bool fits = out_ != nullptr && Fits(chunk_index_, out_->chunk_capacity);
      ChunkRecord scratch;
      ChunkRecord* rec = fits ? &out_->chunks[chunk_index_] : &scratch;
      *rec = ChunkRecord{};
      ChunkIndexRecord index;
      const size_t start = r_.position();
      // The outline pass reads the common shapes of ColumnChunk on a FastCursor (src/chunk_outline.h);
      // what it declines, and every other pass, goes through ReadColumnChunk, which decides it exactly.
      if (mode_ != Mode::kOutline || !OutlineChunk(rec)) {
        *rec = ChunkRecord{};
        if (!ReadColumnChunk(rec, &index)) return false;
      }
      if (fits) {
        if (out_->indexes != nullptr) out_->indexes[chunk_index_] = index;
        if (out_->chunk_spans != nullptr) {
          // Footers are under 2^31 bytes (JS refuses larger ones before decoding).
          out_->chunk_spans[chunk_index_] = {static_cast<int32_t>(static_cast<int64_t>(start) + bias_),
                                             static_cast<int32_t>(r_.position() - start)};
        }
      }
      ++chunk_index_;
    }
    summary_->chunk_count = static_cast<int32_t>(chunk_index_);
    return true;
  }

  bool OutlineChunk(ChunkRecord* rec) {
    thrift::FastCursor c(r_.cursor(), r_.end());
    if (!OutlineColumnChunk(&c, data_, bias_, rec)) return false;
    r_.MoveTo(c.at());
    return true;
  }

  // One ColumnChunk; in the counting pass its bytes are only skipped.
  bool ReadColumnChunk(ChunkRecord* rec, ChunkIndexRecord* index) {
    if (mode_ == Mode::kCounts) return r_.Skip(WireType::kStruct);
    uint32_t flags = 0;
    const bool ok = ForEachField(&r_, [&](WireType type, int16_t id) {
      int64_t v;
      switch (id) {
        case 1: {
          int32_t offset, length;
          if (!Ref(type, &offset, &length)) return false;
          if (length > 0) flags |= kChunkExternalFile;
          return true;
        }
        case 3:
          flags |= kChunkHasMetaData;
          return type == WireType::kStruct && ReadColumnMetaData(rec, index);
        case 4:
          if (!ReadInt(&r_, type, &v)) return false;
          rec->offset_index_offset = static_cast<double>(v);
          return true;
        case 5:
          return ReadInt32(&r_, type, &index->offset_index_length);
        case 6:
          if (!ReadInt(&r_, type, &v)) return false;
          rec->column_index_offset = static_cast<double>(v);
          return true;
        case 7:
          return ReadInt32(&r_, type, &index->column_index_length);
        case 8:
          flags |= kChunkHasCryptoMetaData;
          return r_.Skip(type);
        case 9:
          flags |= kChunkEncryptedMetaData;
          return r_.Skip(type);
        default:
          return r_.Skip(type);
      }
    });
    if (!ok) return false;
    rec->flags = flags;
    return true;
  }

  bool ReadColumnMetaData(ChunkRecord* rec, ChunkIndexRecord* index) {
    return ForEachField(&r_, [&](WireType type, int16_t id) {
      int64_t v;
      auto read_into = [&](double* field) {
        if (!ReadInt(&r_, type, &v)) return false;
        *field = static_cast<double>(v);
        return true;
      };
      const bool is_int = type == WireType::kI32 || type == WireType::kI64 || type == WireType::kI16 || type == WireType::kByte;
      // Optional fields of an unexpected wire type are skipped and flagged, not fatal: the footer stays
      // readable, and only the index the field belongs to is distrusted.
      auto foreign = [&](IndexFlag flag) {
        index->flags |= flag;
        return r_.Skip(type);
      };
      // The outline pass leaves what only the ChunkIndexRecord holds to DecodeColumnChunks.
      if (mode_ == Mode::kOutline && (id == 2 || id == 12 || id == 13)) return r_.Skip(type);
      switch (id) {
        case 1: return read_into(&rec->physical_type);
        case 2: return type == WireType::kList ? ReadEncodings(index) : foreign(kIndexForeignDictionaryField);
        case 4: return is_int ? ReadInt32(&r_, type, &index->codec) : r_.Skip(type);
        case 5: return read_into(&index->num_values);
        case 7: return read_into(&rec->total_compressed_size);
        case 9: return read_into(&rec->data_page_offset);
        case 11: return is_int ? read_into(&rec->dictionary_page_offset) : foreign(kIndexForeignDictionaryField);
        case 12: return type == WireType::kStruct ? ReadStatistics(index) : foreign(kIndexForeignStatisticsField);
        case 13: return type == WireType::kList ? ReadEncodingStats(index) : foreign(kIndexForeignDictionaryField);
        case 14: return is_int ? read_into(&rec->bloom_offset) : foreign(kIndexForeignBloomField);
        case 15: return is_int ? read_into(&rec->bloom_length) : foreign(kIndexForeignBloomField);
        default: return r_.Skip(type);
      }
    });
  }

  bool ReadEncodings(ChunkIndexRecord* index) {
    uint64_t count;
    if (!ReadTypedListHeader(&r_, WireType::kI32, 1, &count)) return false;
    index->flags |= kIndexHasEncodings;
    for (uint64_t i = 0; i < count; ++i) {
      int32_t e;
      if (!ReadInt32(&r_, WireType::kI32, &e)) return false;
      // An encoding this reader does not know cannot be shown as a bit; it still makes the chunk
      // "not provably dictionary-only", which bit 31 records.
      index->encodings |= (e >= 0 && e < 31) ? (1 << e) : INT32_MIN;
    }
    return true;
  }

  // PageEncodingStats {1: page_type, 2: encoding, 3: count}: are all data pages dictionary-encoded?
  bool ReadEncodingStats(ChunkIndexRecord* index) {
    uint64_t count;
    if (!ReadStructListHeader(&r_, 1, &count)) return false;
    bool any_data = false, all_dictionary = true;
    for (uint64_t i = 0; i < count; ++i) {
      int32_t page_type = -1, encoding = -1, pages = -1;
      const bool ok = ForEachField(&r_, [&](WireType type, int16_t id) {
        if (id == 1) return ReadInt32(&r_, type, &page_type);
        if (id == 2) return ReadInt32(&r_, type, &encoding);
        if (id == 3) return ReadInt32(&r_, type, &pages);
        return r_.Skip(type);
      });
      if (!ok) return false;
      constexpr int32_t kDataPage = 0, kDataPageV2 = 3, kPlainDictionary = 2, kRleDictionary = 8;
      if (page_type == kDataPage || page_type == kDataPageV2) {
        if (pages != 0) any_data = true;
        if (pages != 0 && encoding != kPlainDictionary && encoding != kRleDictionary) all_dictionary = false;
      } else if (page_type != 1 && page_type != 2) {
        all_dictionary = false;  // a page type this reader does not know: prove nothing
      }
    }
    index->flags |= kIndexHasEncodingStats;
    if (any_data && all_dictionary) index->flags |= kIndexDataPagesDictionary;
    return true;
  }

  bool ReadStatistics(ChunkIndexRecord* index) {
    index->flags |= kIndexHasStatistics;
    return ForEachField(&r_, [&](WireType type, int16_t id) {
      int64_t v;
      bool b;
      switch (id) {
        case 1: return Ref(type, &index->max_offset, &index->max_length);
        case 2: return Ref(type, &index->min_offset, &index->min_length);
        case 3:
          if (!ReadInt(&r_, type, &v)) return false;
          index->null_count = static_cast<double>(v);
          return true;
        case 4:
          if (!ReadInt(&r_, type, &v)) return false;
          index->distinct_count = static_cast<double>(v);
          return true;
        case 5: return Ref(type, &index->max_value_offset, &index->max_value_length);
        case 6: return Ref(type, &index->min_value_offset, &index->min_value_length);
        case 7:
          if (!ReadBool(type, &b)) return false;
          if (b) index->flags |= kIndexMaxValueExact;
          return true;
        case 8:
          if (!ReadBool(type, &b)) return false;
          if (b) index->flags |= kIndexMinValueExact;
          return true;
        default: return r_.Skip(type);
      }
    });
  }

  bool Ref(WireType type, int32_t* offset, int32_t* length) { return ReadStringRef(&r_, type, data_, bias_, offset, length); }

  Reader r_;
  const uint8_t* data_;
  FileSummary* summary_;
  FileMetaDataOutput* out_;
  Mode mode_;
  int64_t bias_;  // where data_ lies in the footer
  uint64_t chunk_index_ = 0;
};

bool (*volatile Decoder::read_row_group)(Decoder*, uint32_t) = &Decoder::ReadRowGroupOf;

}  // namespace

Status DecodeFileMetaData(const uint8_t* data, size_t size, FileSummary* summary, FileMetaDataOutput* out) {
  *summary = FileSummary{};
  if (data == nullptr && size != 0) return Status::kInvalidArgument;
  if (out != nullptr && (out->schema == nullptr || out->row_groups == nullptr || out->chunks == nullptr)) {
    return Status::kInvalidArgument;
  }
  return Decoder(data, size, summary, out, out != nullptr && out->chunk_spans != nullptr ? Mode::kOutline : Mode::kFull).Run();
}

Status DecodeFooterPass(FooterPass pass, const uint8_t* data, size_t size, int64_t bias, FileSummary* summary,
                        FileMetaDataOutput* out) {
  if ((data == nullptr && size != 0) || out == nullptr || bias < 0 || bias > INT32_MAX) return Status::kInvalidArgument;
  // The passes over the whole footer (what DecodeFileMetaData and DecodeFileMetaDataCounts check, they check).
  if (pass <= kFooterWhole) {
    if (bias != 0 || (pass == kFooterWhole && out->chunk_spans == nullptr)) return Status::kInvalidArgument;
    if (pass == kFooterCounts) return DecodeFileMetaDataCounts(data, size, summary);
    return DecodeFileMetaData(data, size, summary, pass == kFooterWhole ? out : nullptr);
  }
  if (pass > kFooterTail || (pass == kFooterHead && out->schema == nullptr) ||
      (pass == kFooterRowGroups && (out->row_groups == nullptr || out->chunks == nullptr || out->chunk_spans == nullptr))) {
    return Status::kInvalidArgument;
  }
  Decoder decoder(data, size, summary, out, Mode::kOutline, bias);
  if (pass == kFooterRowGroups) return decoder.RunRowGroups();
  *summary = FileSummary{};
  return decoder.Run(pass == kFooterHead, pass == kFooterTail);
}

Status DecodeFileMetaDataCounts(const uint8_t* data, size_t size, FileSummary* summary) {
  *summary = FileSummary{};
  if (data == nullptr && size != 0) return Status::kInvalidArgument;
  return Decoder(data, size, summary, nullptr, Mode::kCounts).Run();
}

Status DecodeColumnChunks(const uint8_t* data, size_t size, const ChunkSpan* spans, uint32_t count, ChunkRecord* chunks,
                          ChunkIndexRecord* indexes, int32_t* failed_slice) {
  *failed_slice = -1;
  if ((data == nullptr && size != 0) || (count != 0 && (spans == nullptr || chunks == nullptr || indexes == nullptr))) {
    return Status::kInvalidArgument;
  }
  size_t at = 0;
  for (uint32_t k = 0; k < count; ++k) {
    const ChunkSpan& span = spans[k];
    if (span.offset < 0 || span.length < 0 || static_cast<size_t>(span.length) > size - at) {
      *failed_slice = static_cast<int32_t>(k);
      return Status::kInvalidArgument;
    }
    FileSummary unused;
    chunks[k] = ChunkRecord{};
    indexes[k] = ChunkIndexRecord{};
    Decoder decoder(data + at, static_cast<size_t>(span.length), &unused, nullptr, Mode::kFull, span.offset);
    if (!decoder.DecodeOneChunk(&chunks[k], &indexes[k])) {
      *failed_slice = static_cast<int32_t>(k);
      return Status::kMalformed;
    }
    at += static_cast<size_t>(span.length);
  }
  return Status::kOk;
}

}  // namespace pb
