// Facts about the enums of the public header: which values are valid, element sizes, names.
#pragma once

#include <cstdint>

#include "sddmm.h"

namespace sddmm {

inline bool is_valid(sddmm_dtype_t t) {
  return t == SDDMM_DTYPE_FLOAT32 || t == SDDMM_DTYPE_FLOAT64 || t == SDDMM_DTYPE_FLOAT16 ||
         t == SDDMM_DTYPE_BFLOAT16;
}
inline bool is_valid(sddmm_index_type_t t) { return t == SDDMM_INDEX_INT32 || t == SDDMM_INDEX_INT64; }
inline bool is_valid(sddmm_layout_t l) { return l == SDDMM_LAYOUT_ROW_MAJOR || l == SDDMM_LAYOUT_COL_MAJOR; }
inline bool is_valid(sddmm_backend_t b) { return b == SDDMM_BACKEND_CPU || b == SDDMM_BACKEND_CUDA; }
inline bool is_valid(sddmm_operation_t o) {
  return o == SDDMM_OPERATION_NON_TRANSPOSE || o == SDDMM_OPERATION_TRANSPOSE;
}

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
