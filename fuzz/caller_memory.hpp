// Memory as a hostile caller hands it over: exactly the elements it claims, `offset` bytes into a
// block of exactly offset + count * element bytes, so AddressSanitizer sees a read one byte past the
// end; or NULL. Elements are written with memcpy because the offset may misalign them on purpose.
// The harness only asks for small blocks (its sizes are capped before it allocates).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sddmm.h"
#include "storage.hpp"

namespace sddmm::fuzz {

// Enums are held as ints in the harness: it passes values outside every enum on purpose.
inline bool is_dtype(int t) {
  return t >= SDDMM_DTYPE_FLOAT32 && t <= SDDMM_DTYPE_BFLOAT16;
}
inline size_t dtype_size(int t) {
  return t == SDDMM_DTYPE_FLOAT64 ? 8 : (t == SDDMM_DTYPE_FLOAT16 || t == SDDMM_DTYPE_BFLOAT16) ? 2 : 4;
}
inline size_t index_size(int t) {
  return t == SDDMM_INDEX_INT64 ? 8 : 4;
}

class CallerMemory {
 public:
  CallerMemory() = default;  // NULL
  CallerMemory(size_t count, size_t element, size_t offset, uint8_t fill)
      : count_(count),
        element_(element),
        offset_(offset),
        block_(static_cast<unsigned char*>(std::malloc(offset + count * element))) {
    if (block_ == nullptr && offset + count * element > 0) std::abort();
    if (block_ != nullptr) std::memset(block_, fill, offset + count * element);
  }
  ~CallerMemory() { std::free(block_); }
  CallerMemory(const CallerMemory&) = delete;
  CallerMemory& operator=(const CallerMemory&) = delete;
  CallerMemory(CallerMemory&& o) noexcept { *this = static_cast<CallerMemory&&>(o); }
  CallerMemory& operator=(CallerMemory&& o) noexcept {
    std::swap(block_, o.block_);
    count_ = o.count_, element_ = o.element_, offset_ = o.offset_;
    return *this;
  }

  void* get() const { return block_ == nullptr ? nullptr : block_ + offset_; }
  size_t count() const { return count_; }
  bool aligned() const { return block_ == nullptr || offset_ % element_ == 0; }

  void set_index(size_t i, int t, int64_t v) {
    const int32_t narrow = static_cast<int32_t>(v);
    std::memcpy(at(i), t == SDDMM_INDEX_INT64 ? static_cast<const void*>(&v) : &narrow, element_);
  }
  int64_t index(size_t i, int t) const {
    int64_t wide = 0;
    int32_t narrow = 0;
    std::memcpy(t == SDDMM_INDEX_INT64 ? static_cast<void*>(&wide) : &narrow, at(i), element_);
    return t == SDDMM_INDEX_INT64 ? wide : narrow;
  }
  // Elements of the four dtypes (rounded to them, through the testkit); invalid dtypes are never
  // written or read back (the library must refuse them).
  void set_value(size_t i, int t, double v) {
    if (is_dtype(t)) testkit::store(static_cast<sddmm_dtype_t>(t), v, at(i));
  }
  double value(size_t i, int t) const {
    return is_dtype(t) ? testkit::load(static_cast<sddmm_dtype_t>(t), at(i)) : 0.0;
  }
  std::vector<unsigned char> bytes() const {
    return block_ == nullptr ? std::vector<unsigned char>{}
                             : std::vector<unsigned char>(block_, block_ + offset_ + count_ * element_);
  }

 private:
  unsigned char* at(size_t i) const { return block_ + offset_ + i * element_; }

  size_t count_ = 0;
  size_t element_ = 1;
  size_t offset_ = 0;
  unsigned char* block_ = nullptr;
};

}  // namespace sddmm::fuzz
