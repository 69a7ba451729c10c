// Fuzzes the Thrift compact reader's Skip (how every unknown footer and header field is passed over):
// it must stay inside the input, fail stickily, and never spin on hostile counts or nesting. A second
// mode writes a value with our own Writer from fuzz choices and Skip must consume exactly those bytes.
// thrift::FastCursor::Skip, on the same bytes, must accept nothing Reader refuses and end where Reader ends.
//
// Input: mode(u8). Mode even: type(u8) then the bytes to skip. Mode odd: a program for the writer.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_input.h"
#include "thrift_compact.h"

using namespace pb;
using thrift::Reader;
using thrift::WireType;
using thrift::Writer;

namespace {

// Writes one struct of fuzz-chosen fields (integers, binaries, nested structs, lists of i32) with our
// Writer; depth bounds nesting well under kMaxNestingDepth.
void WriteStruct(fuzz::Input* in, Writer* w, int depth) {
  int16_t last_id = 0;
  const int fields = in->U8() % 6;
  for (int f = 0; f < fields && !in->empty(); ++f) {
    const int16_t id = static_cast<int16_t>(last_id + 1 + in->U8() % 20);
    switch (in->U8() % 5) {
      case 0:
        w->WriteI32Field(id, static_cast<int32_t>(in->U32()), &last_id);
        break;
      case 1: {
        w->WriteFieldHeader(WireType::kI64, id, &last_id);
        w->WriteVarint(in->U64());
        break;
      }
      case 2: {
        w->WriteFieldHeader(WireType::kBinary, id, &last_id);
        size_t n;
        const uint8_t* bytes = in->Bytes(in->U8() % 16, &n);
        w->WriteVarint(n);
        for (size_t i = 0; i < n; ++i) w->WriteByte(bytes[i]);
        break;
      }
      case 3:
        if (depth < 8) {
          w->WriteFieldHeader(WireType::kStruct, id, &last_id);
          WriteStruct(in, w, depth + 1);
        } else {
          w->WriteFieldHeader(WireType::kBoolTrue, id, &last_id);
        }
        break;
      case 4: {
        w->WriteFieldHeader(WireType::kList, id, &last_id);
        const uint32_t n = in->U8() % 20;
        if (n < 15) {
          w->WriteByte(static_cast<uint8_t>(n << 4 | static_cast<uint8_t>(WireType::kI32)));
        } else {
          w->WriteByte(0xf0 | static_cast<uint8_t>(WireType::kI32));
          w->WriteVarint(n);
        }
        for (uint32_t i = 0; i < n; ++i) w->WriteVarint(in->U8());
        break;
      }
    }
  }
  w->WriteStop();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  if ((in.U8() & 1) == 0) {
    const auto type = static_cast<WireType>(in.U8() % 16);  // 13..15 are not wire types
    size_t n;
    const uint8_t* rest = in.Bytes(in.remaining(), &n);
    fuzz::ExactBuffer bytes(rest, n);
    Reader r(bytes.data(), bytes.size());
    const bool skipped = r.Skip(type);
    FUZZ_CHECK(r.position() <= n && r.remaining() == n - r.position());
    FUZZ_CHECK(skipped == !r.failed());
    FUZZ_CHECK(!r.truncated() || r.failed());
    if (static_cast<uint8_t>(type) > static_cast<uint8_t>(WireType::kStruct) || type == WireType::kStop) {
      FUZZ_CHECK(!skipped);
    }
    // The fast cursor of the footer's hot loops accepts only what Reader accepts, ending where it ends.
    thrift::FastCursor fast(bytes.data(), bytes.data() + bytes.size());
    if (fast.Skip(static_cast<uint8_t>(type))) {
      FUZZ_CHECK(skipped && static_cast<size_t>(fast.at() - bytes.data()) == r.position());
    } else {
      FUZZ_CHECK(fast.at() >= bytes.data() && fast.at() <= bytes.data() + bytes.size());
    }
    if (!skipped) {  // sticky: nothing reads after a failure
      const size_t at = r.position();
      uint8_t b;
      uint64_t v;
      FUZZ_CHECK(!r.ReadByte(&b) && !r.ReadVarint(&v) && !r.Skip(WireType::kI32) && r.position() == at);
    }
    return 0;
  }

  std::vector<uint8_t> encoded(size * 4 + 16);
  Writer w(encoded.data(), encoded.size());
  WriteStruct(&in, &w, 0);
  if (w.overflowed()) return 0;
  fuzz::ExactBuffer bytes(encoded.data(), w.size());
  Reader r(bytes.data(), bytes.size());
  FUZZ_CHECK(r.Skip(WireType::kStruct));
  FUZZ_CHECK(r.position() == w.size());
  // Shallow enough for the fast cursor (WriteStruct nests at most 8 structs): it must take them too.
  thrift::FastCursor fast(bytes.data(), bytes.data() + bytes.size());
  const bool fast_skipped = fast.Skip(static_cast<uint8_t>(WireType::kStruct));
  FUZZ_CHECK(!fast_skipped || static_cast<size_t>(fast.at() - bytes.data()) == w.size());
  return 0;
}
