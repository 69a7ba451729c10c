// Google Benchmark over the native build of the core: BatchOps::Check against a 1 MiB filter for the
// same inputs the JS bench uses (bench/sections/throughput.js), plus the footer decoder, as the "native" column.
//   build/bench/pb_bench --benchmark_format=json    (scripts/bench.sh runs it and reads the JSON)
// Each case reports `values` (slots per call) so the driver can turn real_time into ns/value.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "batch_ops.h"
#include "file_metadata.h"
#include "hasher.h"
#include "sbbf.h"
#include "scratch_pool.h"

namespace {

constexpr uint32_t kFilterBytes = 1u << 20;
constexpr double kNullFraction = 0.1;  // the Arrow-with-nulls cases

pb::ScratchPool& Pool() {
  static pb::ScratchPool pool(size_t{1} << 30);
  return pool;
}

// The input of one case: the batch plus the storage its pointers refer to.
struct Input {
  pb::ValueBatch batch;
  std::vector<uint8_t> values;
  std::vector<int32_t> offsets;
  std::vector<uint8_t> validity;
};

void FillRandom(std::vector<uint8_t>* bytes, std::mt19937_64* rng) {
  for (auto& b : *bytes) b = static_cast<uint8_t>((*rng)());
}

// 16 printable ASCII characters per value, as the JS bench's string[] holds.
void FillAscii(std::vector<uint8_t>* bytes, std::mt19937_64* rng) {
  for (auto& b : *bytes) b = static_cast<uint8_t>('a' + (*rng)() % 26);
}

void AddValidity(Input* in, std::mt19937_64* rng) {
  const uint32_t n = in->batch.count;
  in->validity.assign((n + 7) / 8, 0);
  std::uniform_real_distribution<double> u(0, 1);
  for (uint32_t i = 0; i < n; ++i) {
    if (u(*rng) >= kNullFraction) in->validity[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  in->batch.validity = in->validity.data();
}

enum class Kind { kInt64, kInt32, kDouble, kString16, kFlba16, kBooleanBitmap, kInt64Nulls, kString16Nulls };

Input MakeInput(Kind kind, uint32_t n) {
  std::mt19937_64 rng(42 + n);
  Input in;
  pb::ValueBatch& b = in.batch;
  b.count = n;
  switch (kind) {
    case Kind::kInt64:
    case Kind::kInt64Nulls:
      b.type = pb::PhysicalType::kInt64;
      in.values.resize(size_t{n} * 8);
      FillRandom(&in.values, &rng);
      break;
    case Kind::kInt32:
      b.type = pb::PhysicalType::kInt32;
      in.values.resize(size_t{n} * 4);
      FillRandom(&in.values, &rng);
      break;
    case Kind::kDouble: {
      b.type = pb::PhysicalType::kDouble;
      std::vector<double> d(n);
      std::uniform_real_distribution<double> u(-1e9, 1e9);
      for (auto& x : d) x = u(rng);
      in.values.resize(size_t{n} * 8);
      std::memcpy(in.values.data(), d.data(), in.values.size());
      break;
    }
    case Kind::kString16:
    case Kind::kString16Nulls:
      b.type = pb::PhysicalType::kByteArray;
      in.values.resize(size_t{n} * 16);
      FillAscii(&in.values, &rng);
      in.offsets.resize(size_t{n} + 1);
      for (uint32_t i = 0; i <= n; ++i) in.offsets[i] = static_cast<int32_t>(i * 16);
      b.offsets = in.offsets.data();
      break;
    case Kind::kFlba16:
      b.type = pb::PhysicalType::kFixedLenByteArray;
      b.type_length = 16;
      in.values.resize(size_t{n} * 16);
      FillRandom(&in.values, &rng);
      break;
    case Kind::kBooleanBitmap:
      b.type = pb::PhysicalType::kBoolean;
      in.values.resize((n + 7) / 8);
      FillRandom(&in.values, &rng);
      break;
  }
  b.values = in.values.data();
  b.values_length = in.values.size();
  if (kind == Kind::kInt64Nulls || kind == Kind::kString16Nulls) AddValidity(&in, &rng);
  return in;
}

// A 1 MiB filter holding every other value of the input, so checks see a mix of hits and misses.
std::vector<uint32_t> MakeFilter(const Input& in, pb::BatchOps* ops) {
  std::vector<uint32_t> words(kFilterBytes / 4, 0);
  pb::SbbfView view(words.data(), kFilterBytes);
  std::vector<uint64_t> hashes(in.batch.count);
  uint32_t written = 0;
  if (ops->Hash(in.batch, hashes.data(), &written) != pb::Status::kOk) std::abort();
  for (uint32_t i = 0; i < written; i += 2) view.Insert(hashes[i]);
  return words;
}

void CheckBatch(benchmark::State& state, Kind kind) {
  const auto n = static_cast<uint32_t>(state.range(0));
  pb::BatchOps ops(&Pool());
  const Input in = MakeInput(kind, n);
  std::vector<uint32_t> words = MakeFilter(in, &ops);
  pb::SbbfView filter(words.data(), kFilterBytes);
  std::vector<uint8_t> out(n);
  for (auto _ : state) {
    if (ops.Check(filter, in.batch, out.data()) != pb::Status::kOk) state.SkipWithError("Check failed");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
  state.counters["values"] = n;
}

void Sizes(benchmark::internal::Benchmark* b) {
  for (int64_t n : {64, 1024, 100000, 1000000}) b->Arg(n);
}

BENCHMARK_CAPTURE(CheckBatch, INT64, Kind::kInt64)->Apply(Sizes);
BENCHMARK_CAPTURE(CheckBatch, INT32, Kind::kInt32)->Apply(Sizes);
BENCHMARK_CAPTURE(CheckBatch, DOUBLE, Kind::kDouble)->Apply(Sizes);
BENCHMARK_CAPTURE(CheckBatch, STRING16, Kind::kString16)->Apply(Sizes);
BENCHMARK_CAPTURE(CheckBatch, FLBA16, Kind::kFlba16)->Apply(Sizes);
BENCHMARK_CAPTURE(CheckBatch, BOOLEAN_BITMAP, Kind::kBooleanBitmap)->Apply(Sizes);
BENCHMARK_CAPTURE(CheckBatch, INT64_NULLS, Kind::kInt64Nulls)->Apply(Sizes);
BENCHMARK_CAPTURE(CheckBatch, STRING16_NULLS, Kind::kString16Nulls)->Apply(Sizes);

// Both passes of the footer decoder over the footer the JS bench generates (PB_BENCH_FOOTER = its path).
void DecodeFooter(benchmark::State& state) {
  const char* path = std::getenv("PB_BENCH_FOOTER");
  if (path == nullptr) {
    state.SkipWithError("set PB_BENCH_FOOTER to a serialized FileMetaData");
    return;
  }
  std::ifstream file(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  pb::FileSummary summary;
  if (pb::DecodeFileMetaData(bytes.data(), bytes.size(), &summary, nullptr) != pb::Status::kOk) {
    state.SkipWithError("footer does not decode");
    return;
  }
  std::vector<pb::SchemaRecord> schema(summary.schema_count);
  std::vector<pb::RowGroupRecord> row_groups(summary.row_group_count);
  std::vector<pb::ChunkRecord> chunks(summary.chunk_count);
  for (auto _ : state) {
    pb::DecodeFileMetaData(bytes.data(), bytes.size(), &summary, nullptr);
    pb::FileMetaDataOutput out{schema.data(), row_groups.data(), chunks.data()};
    pb::DecodeFileMetaData(bytes.data(), bytes.size(), &summary, &out);
    benchmark::DoNotOptimize(chunks.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes.size());
}
BENCHMARK(DecodeFooter)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
