// Counts calls to the global operator new (replaced in alloc_counter.cc), so a test can prove that a
// code path allocates nothing by comparing the count before and after it.
#pragma once

#include <cstdint>

// Every operator new / new[] call so far (plain, sized-delete-compatible, nothrow and aligned forms).
uint64_t OperatorNewCount();
