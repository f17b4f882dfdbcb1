// A dense operand (sddmm_dense_t) drawn from the fuzzer's bytes: mostly the shape the call needs
// with a padded leading dimension, sometimes a wrong shape, a too-small or enormous ld, a bad enum or
// dtype, NULL or misaligned data, or a NULL descriptor.
#pragma once

#include <cstdint>

#include "byte_reader.hpp"
#include "caller_memory.hpp"
#include "verdict.hpp"

namespace sddmm::fuzz {

struct DenseOperand {
  sddmm_dense_t desc{};  // its enum fields written by fuzz_set_enums from layout and dtype
  int layout = SDDMM_LAYOUT_ROW_MAJOR;
  int dtype = SDDMM_DTYPE_FLOAT32;
  bool null_descriptor = false;
  CallerMemory memory;  // what desc.data points into, when the harness allocated it
  int64_t extent = 0;   // elements from data to one past the last (0: empty, or never allocated)

  const sddmm_dense_t* get() const { return null_descriptor ? nullptr : &desc; }
  bool has_elements() const { return !null_descriptor && extent > 0 && memory.get() != nullptr; }
  size_t position(int64_t i, int64_t j) const {
    return static_cast<size_t>(layout == SDDMM_LAYOUT_ROW_MAJOR ? i * desc.ld + j : j * desc.ld + i);
  }
  double at(int64_t i, int64_t j) const { return memory.value(position(i, j), dtype); }
};

// Draws an operand meant to be rows x cols in `dtype` (now and then another dtype, or none), and
// notes in `verdict` what makes it invalid on its own. Shape agreement between operands and whether
// the dtypes of a call are a supported combination are the caller's to check. An output is filled
// with the byte 0xA5, an input with small integers (and now and then NaN or Inf).
DenseOperand draw_dense(ByteReader& in, int64_t rows, int64_t cols, int dtype, bool output, Verdict& verdict);

}  // namespace sddmm::fuzz
