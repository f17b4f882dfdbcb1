// Facts about the enums of the public header: which values are valid, element sizes, names.
#pragma once

#include <cstdint>
#include <cstring>

#include "sddmm.h"

namespace sddmm {

// The int a caller passed for an enum, read from the enum object's bytes. A C caller may pass any
// int (C enums are ints), but in C++ reading an enum object whose value lies outside the range of
// its enumerators is undefined behaviour (UBSan: -fsanitize=enum). So every enum that comes from a
// caller, as an argument or a descriptor field, is read with raw() and checked with the is_valid_*
// functions below before it is used as the enum.
template <typename Enum>
int raw(const Enum& e) {
  static_assert(sizeof(Enum) == sizeof(int), "the enums of sddmm.h are int-sized");
  int v = 0;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

inline bool is_valid_dtype(int t) { return t >= SDDMM_DTYPE_FLOAT32 && t <= SDDMM_DTYPE_BFLOAT16; }
inline bool is_valid_index_type(int t) { return t == SDDMM_INDEX_INT32 || t == SDDMM_INDEX_INT64; }
inline bool is_valid_layout(int l) { return l == SDDMM_LAYOUT_ROW_MAJOR || l == SDDMM_LAYOUT_COL_MAJOR; }
inline bool is_valid_backend(int b) { return b == SDDMM_BACKEND_CPU || b == SDDMM_BACKEND_CUDA; }
inline bool is_valid_operation(int o) { return o == SDDMM_OPERATION_NON_TRANSPOSE || o == SDDMM_OPERATION_TRANSPOSE; }

inline int64_t size_of(sddmm_dtype_t t) {
  switch (t) {
    case SDDMM_DTYPE_FLOAT64: return 8;
    case SDDMM_DTYPE_FLOAT32: return 4;
    case SDDMM_DTYPE_FLOAT16:
    case SDDMM_DTYPE_BFLOAT16: return 2;
  }
  return 0;
}
inline int64_t size_of(sddmm_index_type_t t) { return t == SDDMM_INDEX_INT64 ? 8 : 4; }

inline const char* name_of(sddmm_dtype_t t) {
  switch (t) {
    case SDDMM_DTYPE_FLOAT32: return "float32";
    case SDDMM_DTYPE_FLOAT64: return "float64";
    case SDDMM_DTYPE_FLOAT16: return "float16";
    case SDDMM_DTYPE_BFLOAT16: return "bfloat16";
  }
  return "invalid dtype";
}

// Reads element i of a caller's index array of either width.
inline int64_t load_index(const void* array, sddmm_index_type_t type, int64_t i) {
  return type == SDDMM_INDEX_INT64 ? static_cast<const int64_t*>(array)[i]
                                   : static_cast<const int32_t*>(array)[i];
}

}  // namespace sddmm
