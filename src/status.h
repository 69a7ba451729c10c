// Status codes returned by every fallible C++ entry point; only the JS layer turns them into exceptions.
#pragma once

#include <cstdint>

#include "abi.h"

namespace pb {

// JS names these (js/wasm/abi.js NativeStatus), so they are declared once through the ABI (src/abi.h).
#define PB_STATUS_VALUES(X)                                                                           \
  X(kOk, 0)                                                                                           \
  X(kMalformed, 1)       /* bytes that do not decode (truncated, bad varint, out-of-bounds offsets) */ \
  X(kUnsupported, 2)     /* well-formed but not usable here (unknown union, legacy format) */         \
  X(kInvalidArgument, 3) /* a caller error: bad type code, fpp outside (0, 1), null pointer */        \
  X(kLimitExceeded, 4)   /* a configured bound would be crossed (pool budget, 128 MiB filter ceiling) */
enum class Status : int32_t { PB_STATUS_VALUES(PB_ABI_DECLARE_ENUMERATOR) };
PB_ABI_DESCRIBE_ENUM(Status, PB_STATUS_VALUES)

inline bool ok(Status s) { return s == Status::kOk; }

}  // namespace pb
