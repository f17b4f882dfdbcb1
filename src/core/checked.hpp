// Overflow-checked int64 arithmetic for sizes that come from callers.
#pragma once

#include <cstdint>

namespace sddmm {

// a * b for a, b >= 0; false when the product does not fit in int64.
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
inline bool checked_add(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }

}  // namespace sddmm
