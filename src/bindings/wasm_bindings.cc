// The wasm module's exports: the raw, pointer-and-length interface js/ builds its ergonomic API on, as
// plain C functions of numbers (js/wasm/core.js binds each by its C name). Every batch crosses the boundary
// in one call; pointers are wasm32 addresses passed as numbers. No Embind: its runtime in the glue weighs
// more than the functions it would bind, and every browser downloads it.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <iterator>
#include <new>

#include "abi.h"
#include "batch_descriptor.h"
#include "batch_ops.h"
#include "bloom_header.h"
#include "file_metadata.h"
#include "hasher.h"
#include "sbbf.h"
#include "sbbf_health.h"
#include "scratch_pool.h"

namespace {

using pb::Status;

// Counts every C++ heap allocation in the module, so tests and benchmarks can prove that warm batched
// calls allocate nothing (the pool counts its own system allocations separately).
uint64_t g_operator_new_calls = 0;

constexpr size_t kDefaultPoolBytes = size_t{1} << 30;  // 1 GiB; lowered by JS with poolSetMaxBytes
pb::ScratchPool g_pool(kDefaultPoolBytes);
pb::BatchOps g_ops(&g_pool);

// The region js/wasm/core.js streams batches through, a chunk of values at a time (js/wasm/batch-writer.js).
// Static, outside the pool: a batch of any size then costs no pool memory and no heap growth.
constexpr uint32_t kBatchScratchBytes = 256 * 1024;
alignas(16) uint8_t g_batch_scratch[kBatchScratchBytes];

// Where pb_pool_stats writes the pool's held, in-use and maximum held bytes for JS to read.
double g_pool_stats[3];

template <typename T>
T* Ptr(uint32_t address) {
  return reinterpret_cast<T*>(static_cast<uintptr_t>(address));
}

int32_t Code(Status s) { return static_cast<int32_t>(s); }

// The descriptor JS writes into scratch memory (src/bindings/batch_descriptor.h, js/wasm/core.js writeDescriptor).
// offsets_base is subtracted from the count + 1 BYTE_ARRAY offsets first, in place: JS copies a chunk of a
// caller's offsets as they are, and this loop costs a fraction of the same loop in JS. The word is then
// cleared, so the descriptor can serve another call.
pb::ValueBatch ReadDescriptor(uint32_t desc_address) {
  pb::BatchDescriptor& d = *Ptr<pb::BatchDescriptor>(desc_address);
  if (d.offsets_base != 0 && d.offsets != 0) {
    int32_t* offsets = Ptr<int32_t>(d.offsets);
    // Unsigned, so a malformed offset wraps as it would in JS instead of overflowing; ValidateBatch judges it.
    for (uint32_t i = 0; i <= d.count; ++i) offsets[i] = static_cast<int32_t>(static_cast<uint32_t>(offsets[i]) - d.offsets_base);
  }
  d.offsets_base = 0;
  pb::ValueBatch b;
  b.type = static_cast<pb::PhysicalType>(d.type);
  b.type_length = d.type_length;
  b.count = d.count;
  b.values = Ptr<const uint8_t>(d.values);
  b.values_length = d.values_length;
  b.offsets = Ptr<const int32_t>(d.offsets);
  b.values_bit_offset = d.values_bit_offset;
  b.validity = Ptr<const uint8_t>(d.validity);
  b.validity_bit_offset = d.validity_bit_offset;
  return b;
}

bool FilterArgsValid(uint32_t words_address, uint32_t num_bytes) {
  return words_address != 0 && words_address % 4 == 0 && pb::IsValidNumBytes(num_bytes);
}

// Every record and enum crossing the boundary (src/abi.h); js/wasm/abi.js binds to exactly these at init().
constexpr const pb::abi::Record* kAbiRecords[] = {
    &pb::abi_BatchDescriptor::kRecord, &pb::abi_BloomHeader::kRecord, &pb::abi_BitsetHealth::kRecord,
    &pb::abi_FileSummary::kRecord,     &pb::abi_SchemaRecord::kRecord, &pb::abi_RowGroupRecord::kRecord,
    &pb::abi_ChunkRecord::kRecord,     &pb::abi_ChunkIndexRecord::kRecord, &pb::abi_ChunkSpan::kRecord,
};
constexpr const pb::abi::Enum* kAbiEnums[] = {
    &pb::abi_Status::kEnum,
    &pb::abi_HeaderProblem::kEnum,
    &pb::abi_PhysicalType::kEnum,
    &pb::abi_ChunkFlag::kEnum,
    &pb::abi_IndexFlag::kEnum,
    &pb::abi_SbbfLimit::kEnum,
    &pb::abi_FooterPass::kEnum,
};
constexpr uint32_t kAbiDescriptionVersion = 2;
constexpr pb::abi::Description kAbi{kAbiDescriptionVersion, std::size(kAbiRecords), kAbiRecords, std::size(kAbiEnums),
                                    kAbiEnums};

}  // namespace

extern "C" {

// The pool and scratch calls and the filter and header calls js/ makes outside a batch's chunks.
// uint32_t results reach JS as signed int32 (js/wasm/core.js reads them back unsigned).
EMSCRIPTEN_KEEPALIVE uint32_t pb_pool_acquire(uint32_t bytes) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_pool.Acquire(bytes)));
}

EMSCRIPTEN_KEEPALIVE int32_t pb_pool_release(uint32_t address) { return Code(g_pool.Release(Ptr<void>(address))); }

EMSCRIPTEN_KEEPALIVE void pb_pool_set_max_bytes(double bytes) {
  g_pool.set_max_held_bytes(static_cast<size_t>(bytes));
}

// Fills the pool's held, in-use and maximum held bytes, three doubles, and returns their address
// (js/wasm/core.js reads them as NativeFunctions.poolStats()).
EMSCRIPTEN_KEEPALIVE uint32_t pb_pool_stats() {
  g_pool_stats[0] = static_cast<double>(g_pool.held_bytes());
  g_pool_stats[1] = static_cast<double>(g_pool.in_use_bytes());
  g_pool_stats[2] = static_cast<double>(g_pool.max_held_bytes());
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_pool_stats));
}

EMSCRIPTEN_KEEPALIVE uint32_t pb_pool_class_bytes(uint32_t bytes) {
  return static_cast<uint32_t>(pb::ScratchPool::ClassBytes(bytes));
}

// Kept for bench/sections/allocations.js, which shows that warm batched calls allocate nothing.
EMSCRIPTEN_KEEPALIVE double pb_allocation_count() {
  return static_cast<double>(g_pool.system_allocations() + g_operator_new_calls);
}

EMSCRIPTEN_KEEPALIVE uint32_t pb_batch_scratch_address() {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(g_batch_scratch));
}

EMSCRIPTEN_KEEPALIVE uint32_t pb_batch_scratch_bytes() { return kBatchScratchBytes; }

// Writes the BloomHeader at out_address.
EMSCRIPTEN_KEEPALIVE int32_t pb_decode_header(uint32_t data_address, uint32_t size, uint32_t out_address) {
  return Code(pb::DecodeBloomHeader(Ptr<const uint8_t>(data_address), size, Ptr<pb::BloomHeader>(out_address)));
}

EMSCRIPTEN_KEEPALIVE uint32_t pb_encode_header(int32_t num_bytes, uint32_t out_address, uint32_t capacity) {
  return static_cast<uint32_t>(pb::EncodeBloomHeader(num_bytes, Ptr<uint8_t>(out_address), capacity));
}

EMSCRIPTEN_KEEPALIVE double pb_optimal_num_bytes(double ndv, double fpp) {
  uint32_t n = 0;
  if (!(ndv >= 0) || !pb::ok(pb::OptimalNumBytes(static_cast<uint64_t>(ndv), fpp, &n))) return 0;
  return n;
}

EMSCRIPTEN_KEEPALIVE int32_t pb_check_hashes(uint32_t words_address, uint32_t num_bytes, uint32_t hashes_address,
                                             uint32_t n, uint32_t out_address) {
  if (!FilterArgsValid(words_address, num_bytes)) return Code(Status::kInvalidArgument);
  pb::SbbfView(Ptr<uint32_t>(words_address), num_bytes)
      .CheckHashes(Ptr<const uint64_t>(hashes_address), n, Ptr<uint8_t>(out_address));
  return Code(Status::kOk);
}

EMSCRIPTEN_KEEPALIVE void pb_block_indices(uint32_t hashes_address, uint32_t n, uint32_t num_blocks,
                                           uint32_t out_address) {
  pb::BlockIndices(Ptr<const uint64_t>(hashes_address), n, num_blocks, Ptr<uint32_t>(out_address));
}

EMSCRIPTEN_KEEPALIVE void pb_check_gathered_blocks(uint32_t hashes_address, uint32_t blocks_address, uint32_t n,
                                                   uint32_t out_address) {
  pb::CheckGatheredBlocks(Ptr<const uint64_t>(hashes_address), Ptr<const uint32_t>(blocks_address), n,
                          Ptr<uint8_t>(out_address));
}

// Whole ColumnChunks, packed back to back at data_address (js/footer/chunk-indexes.js); writes the index of a
// slice that does not decode as an int32 at failed_address.
EMSCRIPTEN_KEEPALIVE int32_t pb_decode_column_chunks(uint32_t data_address, uint32_t size, uint32_t spans_address,
                                                     uint32_t count, uint32_t chunks_address,
                                                     uint32_t indexes_address, uint32_t failed_address) {
  if (failed_address == 0 || failed_address % 4 != 0) return Code(Status::kInvalidArgument);
  return Code(pb::DecodeColumnChunks(Ptr<const uint8_t>(data_address), size, Ptr<const pb::ChunkSpan>(spans_address),
                                     count, Ptr<pb::ChunkRecord>(chunks_address),
                                     Ptr<pb::ChunkIndexRecord>(indexes_address), Ptr<int32_t>(failed_address)));
}

// Writes the BitsetHealth at out_address.
EMSCRIPTEN_KEEPALIVE int32_t pb_analyze_bitset(uint32_t words_address, uint32_t num_bytes, uint32_t out_address) {
  if (!FilterArgsValid(words_address, num_bytes)) return Code(Status::kInvalidArgument);
  pb::AnalyzeBitset(Ptr<const uint32_t>(words_address), num_bytes, Ptr<pb::BitsetHealth>(out_address));
  return Code(Status::kOk);
}

// Address of the src/abi.h Description js/wasm/abi.js binds to.
EMSCRIPTEN_KEEPALIVE uint32_t pb_abi_description() {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(&kAbi));
}

// The calls a batch makes once per chunk (js/wasm/batch-writer.js streamBatch), which js/wasm/core.js calls
// as the wasm functions themselves, with no wrapper between. Each refuses the null address, so JS can make
// the first, binding call of each with zeros.

EMSCRIPTEN_KEEPALIVE int32_t pb_insert_batch(uint32_t words_address, uint32_t num_bytes, uint32_t desc_address) {
  if (!FilterArgsValid(words_address, num_bytes) || desc_address == 0) return Code(Status::kInvalidArgument);
  return Code(g_ops.Insert(pb::SbbfView(Ptr<uint32_t>(words_address), num_bytes), ReadDescriptor(desc_address)));
}

EMSCRIPTEN_KEEPALIVE int32_t pb_check_batch(uint32_t words_address, uint32_t num_bytes, uint32_t desc_address,
                                            uint32_t out_address) {
  if (!FilterArgsValid(words_address, num_bytes) || desc_address == 0) return Code(Status::kInvalidArgument);
  return Code(g_ops.Check(pb::SbbfView(Ptr<uint32_t>(words_address), num_bytes), ReadDescriptor(desc_address),
                          Ptr<uint8_t>(out_address)));
}

// Returns the number of hashes written (valid slots), or -status on failure.
EMSCRIPTEN_KEEPALIVE int32_t pb_hash_batch(uint32_t desc_address, uint32_t out_address) {
  if (desc_address == 0) return -Code(Status::kInvalidArgument);
  uint32_t written = 0;
  const Status s = g_ops.Hash(ReadDescriptor(desc_address), Ptr<uint64_t>(out_address), &written);
  return pb::ok(s) ? static_cast<int32_t>(written) : -Code(s);
}

// One pass of the footer decoder (pb::DecodeFooterPass: the counts, pass one, the outline pass whole or
// one part of it over a window of a big footer; js/footer/footer.js, js/footer/windowed-outline.js), into
// arrays of the given capacities (records past them are counted, not written: see FileMetaDataOutput).
EMSCRIPTEN_KEEPALIVE int32_t pb_decode_footer(int32_t pass, uint32_t data_address, uint32_t size, uint32_t bias,
                                                   uint32_t summary_address, uint32_t schema_address,
                                                   uint32_t row_groups_address, uint32_t chunks_address,
                                                   uint32_t spans_address, uint32_t column_orders_address,
                                                   uint32_t schema_capacity, uint32_t row_group_capacity,
                                                   uint32_t chunk_capacity, uint32_t column_order_capacity) {
  if (summary_address == 0) return Code(Status::kInvalidArgument);
  pb::FileMetaDataOutput out{Ptr<pb::SchemaRecord>(schema_address), Ptr<pb::RowGroupRecord>(row_groups_address),
                             Ptr<pb::ChunkRecord>(chunks_address), nullptr, Ptr<int32_t>(column_orders_address)};
  out.chunk_spans = Ptr<pb::ChunkSpan>(spans_address);
  out.schema_capacity = schema_capacity;
  out.row_group_capacity = row_group_capacity;
  out.chunk_capacity = chunk_capacity;
  out.column_order_capacity = column_order_capacity;
  return Code(pb::DecodeFooterPass(static_cast<pb::FooterPass>(pass), Ptr<const uint8_t>(data_address), size, bias,
                                         Ptr<pb::FileSummary>(summary_address), &out));
}

}  // extern "C"

void* operator new(size_t size) {
  ++g_operator_new_calls;
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) std::abort();
  return p;
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
