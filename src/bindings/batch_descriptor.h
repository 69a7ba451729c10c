// The batch descriptor JS writes into scratch memory in front of a batch (js/wasm/batch-writer.js): a wasm32
// rendering of ValueBatch, addresses as 32-bit numbers. Declared through the ABI (src/abi.h).
#pragma once

#include <cstdint>

#include "abi.h"

namespace pb {

#define PB_BATCH_DESCRIPTOR_FIELDS(X)                                             \
  X(int32_t, type, 0)                 /* PhysicalType */                          \
  X(uint32_t, type_length, 0)                                                     \
  X(uint32_t, count, 0)                                                           \
  X(uint32_t, values, 0)              /* address */                               \
  X(uint32_t, values_length, 0)                                                   \
  X(uint32_t, offsets, 0)             /* address, 0 = none */                     \
  X(int32_t, values_bit_offset, 0)                                                \
  X(uint32_t, validity, 0)            /* address, 0 = every slot valid */         \
  X(int32_t, validity_bit_offset, 0)                                              \
  X(uint32_t, offsets_base, 0)        /* subtracted from the offsets first; 0 = none */
struct BatchDescriptor {
  PB_BATCH_DESCRIPTOR_FIELDS(PB_ABI_DECLARE_FIELD)
};
PB_ABI_DESCRIBE_RECORD(BatchDescriptor, PB_BATCH_DESCRIPTOR_FIELDS)

}  // namespace pb
