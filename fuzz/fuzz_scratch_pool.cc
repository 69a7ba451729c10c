// Fuzzes ScratchPool with acquire/release/trim/budget sequences driven by fuzz bytes, mirroring what the
// JS layer can do through poolAcquire/poolRelease/poolTrim/poolSetMaxBytes. Invariants after every step:
// held >= in use, in use == the class sizes of the live blocks, the budget is never crossed by an
// acquire, and double, stale, interior and foreign releases are refused without touching accounting.
//
// Input: budget(u32) then ops: op(u8) argument bytes...
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_input.h"
#include "scratch_pool.h"

using namespace pb;

namespace {

struct Live {
  void* block;
  size_t class_bytes;
};

size_t RequestSize(fuzz::Input* in) {
  switch (in->U8() % 8) {
    case 0: return in->U8();
    case 1: return ScratchPool::kMaxBlockBytes + 1 + in->U8();  // refused before any allocation
    case 2: return SIZE_MAX - in->U8();
    case 3: return size_t{in->U16()} << (in->U8() % 5);         // up to 1 MiB
    default: return in->U16();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  ScratchPool pool(in.U32() % (size_t{8} << 20));
  std::vector<Live> live;
  std::vector<void*> released;  // addresses handed back; they may be handed out again later
  alignas(16) static uint8_t foreign[256];

  auto expect_refused = [&](void* p) {
    const size_t held = pool.held_bytes(), in_use = pool.in_use_bytes();
    FUZZ_CHECK(pool.Release(p) == Status::kInvalidArgument);
    FUZZ_CHECK(pool.held_bytes() == held && pool.in_use_bytes() == in_use);
  };
  auto is_live = [&](void* p) {
    return std::any_of(live.begin(), live.end(), [&](const Live& l) { return l.block == p; });
  };

  for (int steps = 0; !in.empty() && steps < 256; ++steps) {
    switch (in.U8() % 8) {
      case 0:
      case 1: {
        const size_t bytes = RequestSize(&in);
        const size_t in_use = pool.in_use_bytes();
        void* p = pool.Acquire(bytes);
        if (p == nullptr) {
          // Refused only when it cannot fit beside what is in use (the cache is dropped first).
          FUZZ_CHECK(bytes > ScratchPool::kMaxBlockBytes || in_use + ScratchPool::ClassBytes(bytes) > pool.max_held_bytes());
          break;
        }
        FUZZ_CHECK(bytes <= ScratchPool::kMaxBlockBytes);
        FUZZ_CHECK(reinterpret_cast<uintptr_t>(p) % ScratchPool::kAlignment == 0);
        FUZZ_CHECK(!is_live(p));
        const size_t class_bytes = ScratchPool::ClassBytes(bytes);
        FUZZ_CHECK(class_bytes >= bytes);
        std::memset(p, 0xa5, class_bytes);  // the whole class is usable; ASan catches a short block
        live.push_back({p, class_bytes});
        released.erase(std::remove(released.begin(), released.end(), p), released.end());
        break;
      }
      case 2: {
        if (live.empty()) break;
        const size_t k = in.U8() % live.size();
        FUZZ_CHECK(ok(pool.Release(live[k].block)));
        released.push_back(live[k].block);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        break;
      }
      case 3: {  // double release, whether the block is cached or already back with the system
        if (released.empty()) break;
        void* p = released[in.U8() % released.size()];
        if (!is_live(p)) expect_refused(p);
        break;
      }
      case 4: {  // a pointer inside a live block
        if (live.empty()) break;
        const Live& l = live[in.U8() % live.size()];
        const size_t offset = ScratchPool::kAlignment * (1 + in.U8() % 8);
        if (offset < l.class_bytes) expect_refused(static_cast<uint8_t*>(l.block) + offset);
        break;
      }
      case 5: {  // foreign or misaligned pointers
        const uint8_t choice = in.U8();
        void* p = choice % 3 == 0 ? nullptr : choice % 3 == 1 ? foreign + 16 * (1 + choice % 15) : foreign + 1 + choice % 15;
        if (p != nullptr && choice % 3 == 1) std::memset(foreign, choice, sizeof foreign);
        expect_refused(p);
        break;
      }
      case 6:
        pool.set_max_held_bytes(in.U32() % (size_t{8} << 20));
        break;
      case 7:
        pool.Trim();
        FUZZ_CHECK(pool.held_bytes() == pool.in_use_bytes());
        break;
    }
    size_t in_use = 0;
    for (const Live& l : live) in_use += l.class_bytes;
    FUZZ_CHECK(pool.in_use_bytes() == in_use);
    FUZZ_CHECK(pool.held_bytes() >= pool.in_use_bytes());
    // Over budget only after the budget was lowered below what is in use, and then nothing is cached.
    FUZZ_CHECK(pool.held_bytes() <= pool.max_held_bytes() || pool.held_bytes() == pool.in_use_bytes());
  }
  for (const Live& l : live) FUZZ_CHECK(ok(pool.Release(l.block)));
  FUZZ_CHECK(pool.in_use_bytes() == 0);
  return 0;
}
