// Locates and reads the third-party fixtures in ../shared/fixtures (never committed), and lets the tests
// that need them skip with the missing path named instead of failing — or fail, when fixtures are required
// (PB_REQUIRE_FIXTURES, as CI sets it). Also names status enums in failures.
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

// True when a missing fixture must fail its test rather than skip it: the build was configured with
// PB_REQUIRE_FIXTURES, or (native runs) PB_REQUIRE_FIXTURES=1 is in the environment.
bool FixturesRequired();

// Skips the calling test body with `why`, or fails it when fixtures are required.
#define PB_SKIP_FOR_MISSING_FIXTURE(why)                                                 \
  do {                                                                                   \
    const std::string pb_why = (why);                                                    \
    if (FixturesRequired()) GTEST_FAIL() << "required fixture missing (PB_REQUIRE_FIXTURES): " << pb_why; \
    GTEST_SKIP() << pb_why;                                                              \
  } while (0)

// Reads a fixture or skips (fails, when required) the calling test body, naming the path looked for.
#define PB_READ_FIXTURE_OR_SKIP(relative, out)                                                                    \
  do {                                                                                                            \
    if (!ReadFixture((relative), (out))) {                                                                        \
      PB_SKIP_FOR_MISSING_FIXTURE("fixture not found: " + FixturePath(relative) +                                 \
                                  " (third-party test data from ../shared/fixtures; it is not committed)");       \
    }                                                                                                             \
  } while (0)

// sbbf-vectors.json is read at configure time; without it sbbf_vectors.h declares no vectors, so tests
// that use them are compiled only under PB_HAVE_SBBF_VECTORS and otherwise skip with this message (a
// configuration that requires fixtures fails before it gets here).
#define PB_SKIP_WITHOUT_SBBF_VECTORS()                                              \
  PB_SKIP_FOR_MISSING_FIXTURE("published vectors not found: " PB_SBBF_VECTORS_PATH \
                              " (re-run cmake once ../shared/fixtures is present)")

namespace pb {

// gtest prints enum classes as raw bytes; these make a failed EXPECT_EQ say which status it saw.
void PrintTo(Status status, std::ostream* os);
void PrintTo(HeaderProblem problem, std::ostream* os);

}  // namespace pb
