#include "dense_input.hpp"

#include <limits>

#include "c_calls.h"

namespace sddmm::fuzz {
namespace {

constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
// The largest operand the harness allocates (elements); a larger valid claim gets NULL data, which
// the library must refuse.
constexpr int64_t kMaxElements = int64_t{1} << 16;

int64_t perturb(ByteReader& in, int64_t size) {
  if (!in.chance(8)) return size;
  const int64_t wrong[] = {size + 1, size - 1, -1, kMax64};
  return in.pick(wrong);
}

// Elements spanned, as the header defines them: (height - 1) * ld + width; false on int64 overflow.
bool span(int64_t height, int64_t width, int64_t ld, int64_t element, int64_t* elements) {
  int64_t bytes = 0;
  return !__builtin_mul_overflow(height - 1, ld, elements) && !__builtin_add_overflow(*elements, width, elements) &&
         !__builtin_mul_overflow(*elements, element, &bytes);
}

void fill_values(ByteReader& in, DenseOperand& d) {
  const int64_t seed = in.byte();
  for (int64_t i = 0; i < d.extent; ++i) d.memory.set_value(i, d.dtype, (i * 37 + seed * 11) % 9 - 4);
  if (in.chance(12)) {
    const double special[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity()};
    for (int n = 0; n < 3; ++n) d.memory.set_value(static_cast<size_t>(in.below(d.extent)), d.dtype, in.pick(special));
  }
}

}  // namespace

DenseOperand draw_dense(ByteReader& in, int64_t rows, int64_t cols, int dtype, bool output, Verdict& v) {
  DenseOperand d;
  if (in.chance(3)) {
    d.null_descriptor = true;
    v.invalid(true, "a dense descriptor is NULL");
    return d;
  }
  d.desc.rows = perturb(in, rows);
  d.desc.cols = perturb(in, cols);
  uint8_t b = in.byte();
  d.layout = b < 245 ? b & 1 : 2 + b % 3;
  v.invalid(b >= 245, "a layout is not a valid enum value");
  const int others[] = {SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT64, SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_BFLOAT16, 7, -1};
  d.dtype = in.chance(240) ? dtype : in.pick(others);
  v.invalid(!is_dtype(d.dtype), "an operand's dtype is not a dtype");
  fuzz_set_enums(&d.desc, d.layout, d.dtype);
  v.invalid(d.desc.rows < 0 || d.desc.cols < 0, "an operand has a negative shape");
  if (d.desc.rows < 0 || d.desc.cols < 0 || b >= 245) return d;

  const bool row_major = d.layout == SDDMM_LAYOUT_ROW_MAJOR;
  const int64_t width = row_major ? d.desc.cols : d.desc.rows;
  const int64_t height = row_major ? d.desc.rows : d.desc.cols;
  const int64_t min_ld = width > 1 ? width : 1;
  b = in.byte();
  const int64_t huge[] = {kMax64, int64_t{1} << 62, int64_t{1} << 40, int64_t{1} << 31};
  int64_t padded = 0;
  if (__builtin_add_overflow(min_ld, b % 4, &padded)) padded = min_ld;
  d.desc.ld = b < 200 ? padded : b < 230 ? min_ld - 1 - b % 3 : in.pick(huge);
  v.invalid(d.desc.ld < min_ld, "a leading dimension is smaller than the width");
  if (d.desc.ld < min_ld) return d;

  const auto element = static_cast<int64_t>(dtype_size(d.dtype));
  if (width == 0 || height == 0) {  // empty: never read, data may be anything
    if (in.chance(128)) d.memory = CallerMemory(0, static_cast<size_t>(element), 0, 0);
    d.desc.data = d.memory.get();
    return d;
  }
  int64_t elements = 0;
  const bool fits = span(height, width, d.desc.ld, element, &elements);
  v.invalid(!fits, "an operand's extent overflows int64 bytes");
  if (!fits || elements > kMaxElements || in.chance(4)) {
    v.invalid(true, "an operand's data is NULL");  // also for valid claims too large for the harness
    return d;
  }
  b = in.byte();
  const size_t offset = b >= 240 ? b % 7 + 1 : 0;
  d.extent = elements;
  d.memory = CallerMemory(static_cast<size_t>(elements), static_cast<size_t>(element), offset, output ? 0xA5 : 0);
  d.desc.data = d.memory.get();
  v.invalid(!d.memory.aligned(), "an operand's data is not aligned to its element size");
  if (!output) fill_values(in, d);
  return d;
}

}  // namespace sddmm::fuzz
