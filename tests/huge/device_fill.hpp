// The big arrays of the huge check, generated on the device from the formulas of pattern.hpp.
#pragma once

#include <cstdint>

#include "pattern.hpp"
#include "sddmm.h"

namespace sddmm::huge {

// d_x[i] = dense_value(seed, i) for i < count. Synchronises.
void fill_dense(float* d_x, int64_t count, uint64_t seed);

// The column indices (of index type `type`) of a laid-out pattern, from its CSR row offsets already
// on the device in the same type. Synchronises.
void fill_columns(const Pattern& pattern, const void* d_offsets, void* d_col, sddmm_index_type_t type);

}  // namespace sddmm::huge
