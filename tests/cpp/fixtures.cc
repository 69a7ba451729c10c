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

namespace {

// Names come from the enums' ABI declarations (src/abi.h), so a new enumerator needs no edit here.
void PrintEnum(const char* enum_name, const char* name, int32_t code, std::ostream* os) {
  if (name != nullptr) {
    *os << enum_name << "::" << name;
  } else {
    *os << enum_name << "(" << code << ")";
  }
}

}  // namespace

void PrintTo(Status status, std::ostream* os) {
  PrintEnum("Status", abi_Status::NameOf(status), static_cast<int32_t>(status), os);
}

void PrintTo(HeaderProblem problem, std::ostream* os) {
  PrintEnum("HeaderProblem", abi_HeaderProblem::NameOf(problem), static_cast<int32_t>(problem), os);
}

}  // namespace pb
