// Status codes returned by every fallible C++ entry point; only the JS layer turns them into exceptions.
#pragma once

#include <cstdint>

namespace pb {

enum class Status : int32_t {
  kOk = 0,
  kMalformed = 1,        // bytes that do not decode (truncated, bad varint, out-of-bounds offsets)
  kUnsupported = 2,      // well-formed but not something this reader can use (unknown union, legacy format)
  kInvalidArgument = 3,  // a caller error: bad type code, fpp outside (0, 1), null pointer
  kLimitExceeded = 4,    // a configured bound would be crossed (pool budget, 128 MiB filter ceiling)
};

inline bool ok(Status s) { return s == Status::kOk; }

}  // namespace pb
