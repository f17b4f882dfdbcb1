// Arrays carved from one device allocation. On the H200 a cudaMalloc costs 0.02-0.1 ms and a
// cudaFree 0.05-0.34 ms (1-536 MB), more than most plan-creation kernels: a plan keeps all its
// arrays in one allocation, and creation carves its temporaries from one scratch allocation.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/error.hpp"
#include "cuda/runtime.cuh"

namespace sddmm::cuda {

// A typed piece of a larger allocation, owning nothing: the get/size/empty of DeviceArray. A piece
// of no elements is null, so empty() means "not there" as it does for DeviceArray.
template <typename T>
class DeviceSpan {
 public:
  DeviceSpan() = default;
  DeviceSpan(T* ptr, int64_t count) : ptr_(count > 0 ? ptr : nullptr), count_(count > 0 ? count : 0) {}

  T* get() const { return ptr_; }
  int64_t size() const { return count_; }
  bool empty() const { return ptr_ == nullptr; }
  DeviceSpan subspan(int64_t first, int64_t count) const { return DeviceSpan(ptr_ + first, count); }

 private:
  T* ptr_ = nullptr;
  int64_t count_ = 0;
};

// Lays pieces out one after another, each 256-byte aligned. Without a base it only measures (every
// piece is null); on an allocation it hands the pieces out and fails past the capacity. The same
// layout code runs twice: once to measure, once on the allocation it measured.
class Carver {
 public:
  // Every piece starts this many bytes into the allocation, a multiple of it (cudaMalloc's base is
  // 256-byte aligned too): kernels may load any piece's elements in 16-byte vectors from an aligned
  // index on.
  static constexpr size_t kPieceAlignment = 256;

  Carver() = default;
  Carver(void* base, size_t capacity) : base_(static_cast<unsigned char*>(base)), capacity_(capacity) {}

  template <typename T>
  T* take(int64_t count) {
    const size_t at = used_;
    used_ += (static_cast<size_t>(count > 0 ? count : 0) * sizeof(T) + kPieceAlignment - 1) / kPieceAlignment *
             kPieceAlignment;
    if (base_ == nullptr) return nullptr;
    if (used_ > capacity_) fail(SDDMM_STATUS_INTERNAL_ERROR, "carved allocation too small for its layout");
    return reinterpret_cast<T*>(base_ + at);
  }
  template <typename T>
  DeviceSpan<T> span(int64_t count) {
    return DeviceSpan<T>(take<T>(count), count);
  }
  size_t used() const { return used_; }

 private:
  unsigned char* base_ = nullptr;
  size_t capacity_ = 0;
  size_t used_ = 0;
};

// Runs layout(Carver&) once to measure, allocates that many bytes and runs it again on them.
template <typename Layout>
DeviceArray<unsigned char> carve(Layout&& layout) {
  Carver measure;
  layout(measure);
  DeviceArray<unsigned char> storage(static_cast<int64_t>(measure.used()));
  Carver pieces(storage.get(), measure.used());
  layout(pieces);
  return storage;
}

}  // namespace sddmm::cuda
