// Fixture lookup for the tests (see fixtures.h). Plain stdio, so it works natively and under Node with
// -sNODERAWFS=1, where absolute host paths are visible as they are.
#include "fixtures.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

bool FixturesRequired() {
  // Under em++ getenv sees only Emscripten's own environment, so the configure-time flag is what counts there.
  const char* env = std::getenv("PB_REQUIRE_FIXTURES");
  return PB_REQUIRE_FIXTURES != 0 || (env != nullptr && std::strcmp(env, "1") == 0);
}

std::string FixturePath(const std::string& relative) { return std::string(PB_FIXTURES_DIR) + "/" + relative; }

bool ReadFixture(const std::string& relative, std::vector<uint8_t>* out) {
  out->clear();
  std::FILE* file = std::fopen(FixturePath(relative).c_str(), "rb");
  if (file == nullptr) return false;
  uint8_t buffer[4096];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, file)) > 0) out->insert(out->end(), buffer, buffer + got);
  const bool read_all = std::ferror(file) == 0;
  std::fclose(file);
  return read_all;
}

namespace pb {

void PrintTo(Status status, std::ostream* os) {
  static const char* const kNames[] = {"kOk", "kMalformed", "kUnsupported", "kInvalidArgument", "kLimitExceeded"};
  const auto code = static_cast<int32_t>(status);
  if (code >= 0 && code < static_cast<int32_t>(sizeof kNames / sizeof kNames[0])) {
    *os << "Status::" << kNames[code];
  } else {
    *os << "Status(" << code << ")";
  }
}

void PrintTo(HeaderProblem problem, std::ostream* os) {
  static const char* const kNames[] = {
      "kNone",         "kTruncated",          "kBadEncoding",   "kMissingNumBytes",  "kMissingAlgorithm",
      "kMissingHash",  "kMissingCompression", "kBadNumBytes",   "kNumBytesTooLarge", "kEmptyUnion",
      "kUnknownUnion", "kLegacyFormat",       "kWrongFieldType"};
  const auto code = static_cast<int32_t>(problem);
  if (code >= 0 && code < static_cast<int32_t>(sizeof kNames / sizeof kNames[0])) {
    *os << "HeaderProblem::" << kNames[code];
  } else {
    *os << "HeaderProblem(" << code << ")";
  }
}

}  // namespace pb
