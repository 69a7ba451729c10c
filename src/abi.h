// The wasm ABI declared once: every struct JS reads or writes in wasm memory and every enum JS compares
// codes against is written as an X-macro list, which both declares the C++ type and describes it (names,
// offsets, sizes, types; enumerator names and values). src/bindings/wasm_bindings.cc exports the
// descriptions and js/wasm/abi.js binds its readers and writers to them at init(), refusing any difference.
//
// A record, then an enum (each X list is one macro, its lines joined with backslashes):
//   #define PB_THING_FIELDS(X) X(int32_t, count, 0) X(double, size, -1)
//   struct Thing { PB_THING_FIELDS(PB_ABI_DECLARE_FIELD) };
//   PB_ABI_DESCRIBE_RECORD(Thing, PB_THING_FIELDS)
//   #define PB_COLOR_VALUES(X) X(kRed, 0) X(kBlue, 1)
//   enum class Color : int32_t { PB_COLOR_VALUES(PB_ABI_DECLARE_ENUMERATOR) };
//   PB_ABI_DESCRIBE_ENUM(Color, PB_COLOR_VALUES)
// then add it to kAbiRecords / kAbiEnums (src/bindings/wasm_bindings.cc) and declare it in js/wasm/abi.js with
// the same names (`new AbiRecord('Thing', 'count size')`), where the code that reads it takes its layout.
// Comments inside an X list must be block comments: a line comment would swallow the continuing backslash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace pb::abi {

// How JS reads a field: its width and signedness (enums by their underlying type).
enum class FieldType : uint32_t { kI8 = 1, kU8 = 2, kI16 = 3, kU16 = 4, kI32 = 5, kU32 = 6, kF64 = 7 };

template <typename T>
constexpr FieldType TypeOf() {
  if constexpr (std::is_enum_v<T>) {
    return TypeOf<std::underlying_type_t<T>>();
  } else if constexpr (std::is_same_v<T, double>) {
    return FieldType::kF64;
  } else {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 4, "ABI fields are doubles, enums or integers of up to 32 bits");
    constexpr bool is_signed = std::is_signed_v<T>;
    if constexpr (sizeof(T) == 1) return is_signed ? FieldType::kI8 : FieldType::kU8;
    if constexpr (sizeof(T) == 2) return is_signed ? FieldType::kI16 : FieldType::kU16;
    return is_signed ? FieldType::kI32 : FieldType::kU32;
  }
}

// The description's own layout is the one JS must know in advance (js/wasm/abi.js readDescription): 32-bit
// words. Names travel as a hash: JS lists the same names and hashes them alike, so a renamed, added,
// removed or reordered field or enumerator differs, while the module carries no strings for them.
struct Record {
  uint32_t name_hash;   // NamesHash of "Name": how JS finds it, in whatever order the bindings list records
  uint32_t names_hash;  // NamesHash of "Name\0first_field\0second_field\0…", in declaration order
  uint32_t size;
  uint32_t field_count;
  const uint32_t* fields;  // per field: offset << 16 | size << 8 | FieldType
};
struct Enum {
  uint32_t name_hash;   // NamesHash of "Name"
  uint32_t names_hash;  // NamesHash of "Name\0kFirst\0kSecond\0…"
  uint32_t count;
  const int32_t* values;
};
struct Description {
  uint32_t version;  // of this layout (js/wasm/abi.js VERSION)
  uint32_t record_count;
  const Record* const* records;
  uint32_t enum_count;
  const Enum* const* enums;
};
static_assert(sizeof(void*) != 4 || (sizeof(Record) == 20 && sizeof(Enum) == 16 && sizeof(Description) == 20),
              "js/wasm/abi.js reads the description as 32-bit words");

// 32-bit FNV-1a, as js/wasm/abi.js computes it over the same characters.
template <size_t N>
constexpr uint32_t NamesHash(const char (&names)[N]) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i + 1 < N; ++i) h = (h ^ static_cast<uint8_t>(names[i])) * 16777619u;
  return h;
}

constexpr uint32_t PackField(size_t offset, size_t size, FieldType type) {
  return static_cast<uint32_t>(offset << 16 | size << 8 | static_cast<uint32_t>(type));
}

// The enumerator's name in `names` (an enum's kNames), or nullptr for a value the enum does not declare.
inline const char* NameOf(const char* names, const int32_t* values, size_t count, int32_t value) {
  for (size_t i = 0; i < count; ++i) {
    while (*names++ != '\0') {
    }
    if (values[i] == value) return names;
  }
  return nullptr;
}

}  // namespace pb::abi

#define PB_ABI_DECLARE_FIELD(type, name, initial) type name = initial;
#define PB_ABI_DECLARE_ENUMERATOR(name, value) name = value,

#define PB_ABI_FIELD_NAME(type, name, initial) #name "\0"
#define PB_ABI_FIELD_WORD(type, name, initial) \
  ::pb::abi::PackField(offsetof(Self, name), sizeof(type), ::pb::abi::TypeOf<type>()),
#define PB_ABI_ENUMERATOR_NAME(name, value) #name "\0"
#define PB_ABI_ENUMERATOR_VALUE(name, value) static_cast<int32_t>(value),

// Defines abi_<Name>::kRecord, the description of struct Name, next to the struct.
#define PB_ABI_DESCRIBE_RECORD(Name, FIELDS)                                                              \
  namespace abi_##Name {                                                                                  \
  using Self = Name;                                                                                      \
  inline constexpr char kNames[] = #Name "\0" FIELDS(PB_ABI_FIELD_NAME);                                  \
  inline constexpr uint32_t kFields[] = {FIELDS(PB_ABI_FIELD_WORD)};                                      \
  inline constexpr ::pb::abi::Record kRecord{::pb::abi::NamesHash(#Name), ::pb::abi::NamesHash(kNames),      \
                                             static_cast<uint32_t>(sizeof(Name)),                         \
                                             static_cast<uint32_t>(sizeof kFields / sizeof kFields[0]),   \
                                             kFields};                                                    \
  static_assert(std::is_standard_layout_v<Name>, #Name " is read by offset: it must be standard-layout"); \
  static_assert(sizeof(Name) < 65536, #Name " is too large for the packed field offsets");                \
  }

// Defines abi_<Name>::kEnum, the description of enum Name, and abi_<Name>::NameOf, next to the enum.
#define PB_ABI_DESCRIBE_ENUM(Name, VALUES)                                                                \
  namespace abi_##Name {                                                                                  \
  inline constexpr char kNames[] = #Name "\0" VALUES(PB_ABI_ENUMERATOR_NAME);                             \
  inline constexpr int32_t kValues[] = {VALUES(PB_ABI_ENUMERATOR_VALUE)};                                 \
  inline constexpr ::pb::abi::Enum kEnum{::pb::abi::NamesHash(#Name), ::pb::abi::NamesHash(kNames),          \
                                         static_cast<uint32_t>(sizeof kValues / sizeof kValues[0]), kValues}; \
  inline const char* NameOf(Name value) {                                                                 \
    return ::pb::abi::NameOf(kNames, kValues, sizeof kValues / sizeof kValues[0], static_cast<int32_t>(value)); \
  }                                                                                                       \
  }
