// Locates and reads the third-party fixtures in ../shared/fixtures (never committed), and lets the tests
// that need them skip with the missing path named instead of failing. Also names status enums in failures.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "bloom_header.h"
#include "sbbf_vectors.h"
#include "status.h"

// Absolute path of a file under PB_FIXTURES_DIR (the build's -DPB_FIXTURES_DIR).
std::string FixturePath(const std::string& relative);

// Reads the whole fixture into *out; false when it is missing or unreadable.
bool ReadFixture(const std::string& relative, std::vector<uint8_t>* out);

// Reads a fixture or skips the calling test body, naming the path that was looked for.
#define PB_READ_FIXTURE_OR_SKIP(relative, out)                                                 \
  do {                                                                                         \
    if (!ReadFixture((relative), (out))) {                                                     \
      GTEST_SKIP() << "fixture not found: " << FixturePath(relative)                           \
                   << " (third-party test data from ../shared/fixtures; it is not committed)"; \
    }                                                                                          \
  } while (0)

// sbbf-vectors.json is read at configure time; without it sbbf_vectors.h declares no vectors, so tests
// that use them are compiled only under PB_HAVE_SBBF_VECTORS and otherwise skip with this message.
#define PB_SKIP_WITHOUT_SBBF_VECTORS()                                 \
  GTEST_SKIP() << "published vectors not found: " PB_SBBF_VECTORS_PATH \
                  " (re-run cmake once ../shared/fixtures is present)"

namespace pb {

// gtest prints enum classes as raw bytes; these make a failed EXPECT_EQ say which status it saw.
void PrintTo(Status status, std::ostream* os);
void PrintTo(HeaderProblem problem, std::ostream* os);

}  // namespace pb
