// Reads the fuzzer's bytes front to back; past the end every read is 0, so any input is a complete
// program and the seed files in corpus/ can be written by hand, one decision per byte.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sddmm::fuzz {

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  bool empty() const { return pos_ >= size_; }

  // True with probability about n / 256 (a byte below n).
  bool chance(int n) { return byte() < n; }

  // A value in [0, bound) from two bytes (0 when bound <= 0).
  int64_t below(int64_t bound) {
    const int64_t v = byte() | (int64_t{byte()} << 8);
    return bound > 0 ? v % bound : 0;
  }

  // One of the n values of a table.
  template <typename T, size_t N>
  T pick(const T (&table)[N]) {
    return table[byte() % N];
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace sddmm::fuzz
