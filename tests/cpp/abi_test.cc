// The ABI descriptions of src/abi.h: the names hash is 32-bit FNV-1a (its published test vectors), each
// record's packed field words say what the compiler laid out, and enum names come back from their values.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

#include "abi.h"
#include "bloom_header.h"
#include "file_metadata.h"
#include "status.h"

namespace pb {
namespace {

TEST(AbiNamesHash, IsFnv1aOverTheCharactersBeforeTheTerminator) {
  // FNV-1a 32-bit vectors from the FNV reference (draft-eastlake-fnv, isthe.com/chongo/tech/comp/fnv).
  EXPECT_EQ(abi::NamesHash(""), 0x811c9dc5u);
  EXPECT_EQ(abi::NamesHash("a"), 0xe40c292cu);
  EXPECT_EQ(abi::NamesHash("foobar"), 0xbf9cf968u);
  // Embedded NULs separate names and are hashed too.
  EXPECT_NE(abi::NamesHash("ab\0c"), abi::NamesHash("a\0bc"));
}

TEST(AbiRecord, FieldWordsMatchTheCompilersLayout) {
  const abi::Record& r = abi_FileSummary::kRecord;
  EXPECT_EQ(r.size, sizeof(FileSummary));
  ASSERT_EQ(r.field_count, 11u);
  const auto word = [](size_t offset, size_t size, abi::FieldType type) { return abi::PackField(offset, size, type); };
  EXPECT_EQ(r.fields[0], word(offsetof(FileSummary, version), 4, abi::FieldType::kI32));
  EXPECT_EQ(r.fields[4], word(offsetof(FileSummary, num_rows), 8, abi::FieldType::kF64));
  EXPECT_EQ(r.fields[8], word(offsetof(FileSummary, error_offset), 4, abi::FieldType::kI32));
  EXPECT_EQ(r.name_hash, abi::NamesHash("FileSummary"));
  EXPECT_EQ(r.names_hash, abi::NamesHash("FileSummary\0version\0schema_count\0row_group_count\0chunk_count\0num_rows\0"
                                         "created_by_offset\0created_by_length\0has_encryption_algorithm\0error_offset\0"
                                         "column_order_count\0reserved\0"));
  EXPECT_EQ(r.fields[9], word(offsetof(FileSummary, column_order_count), 4, abi::FieldType::kI32));

  // Enums are described by their underlying type; 16-bit fields as such.
  const abi::Record& h = abi_BloomHeader::kRecord;
  ASSERT_EQ(h.field_count, 6u);
  EXPECT_EQ(h.fields[1], word(offsetof(BloomHeader, algorithm), 2, abi::FieldType::kI16));
  EXPECT_EQ(h.fields[4], word(offsetof(BloomHeader, header_length), 4, abi::FieldType::kU32));
  EXPECT_EQ(h.fields[5], word(offsetof(BloomHeader, problem), 4, abi::FieldType::kI32));
}

TEST(AbiRecord, ChunkSpanIsTwoInt32Words) {
  const abi::Record& s = abi_ChunkSpan::kRecord;
  EXPECT_EQ(s.size, 8u);
  ASSERT_EQ(s.field_count, 2u);
  EXPECT_EQ(s.fields[1], abi::PackField(offsetof(ChunkSpan, length), 4, abi::FieldType::kI32));
  EXPECT_EQ(s.names_hash, abi::NamesHash("ChunkSpan\0offset\0length\0"));
}

TEST(AbiEnum, ValuesAndNamesInDeclarationOrder) {
  const abi::Enum& e = abi_ChunkFlag::kEnum;
  ASSERT_EQ(e.count, 4u);
  EXPECT_EQ(e.values[0], 1);
  EXPECT_EQ(e.values[3], 8);
  EXPECT_STREQ(abi_Status::NameOf(Status::kLimitExceeded), "kLimitExceeded");
  EXPECT_STREQ(abi_HeaderProblem::NameOf(HeaderProblem::kNone), "kNone");
  EXPECT_EQ(abi_Status::NameOf(static_cast<Status>(99)), nullptr);
}

}  // namespace
}  // namespace pb
