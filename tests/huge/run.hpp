// What the parts of the huge check share: progress lines, failures as exceptions, the free-memory
// gate, and the handle of a laid-out pattern created from arrays made on the device.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "pattern.hpp"
#include "sampled_check.hpp"
#include "sddmm.h"

namespace sddmm::huge {

enum class Outcome { kPassed, kFailed, kSkipped };

// Prints "[  12.3 s] " (seconds since the program started), then printf(format, ...), a newline,
// and flushes.
void say(const char* format, ...) __attribute__((format(printf, 1, 2)));

class Stopwatch {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Each throws std::runtime_error naming the call (and, for the library, its status and message).
void check_cuda(cudaError_t status, const char* call);
void check_status(sddmm_status_t status, const char* call);

// "" when the device has `bytes` free; else why not, in GiB.
std::string missing_device_memory(int64_t bytes);

// d[0 .. bytes) = 0xFF: NaN in float32, so an output the library leaves unwritten mismatches.
void poison(void* d, int64_t bytes);

// A handle, destroyed with the object.
class Matrix {
 public:
  explicit Matrix(sddmm_matrix_t handle) : handle_(handle) {}
  ~Matrix() { sddmm_destroy(handle_); }
  Matrix(Matrix&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  sddmm_matrix_t get() const { return handle_; }

 private:
  sddmm_matrix_t handle_;
};

// Each runs one call into `out` or `y` (poisoned first: `bytes` of it), waits for it, prints its time
// and checks the sampled outputs (sampled_check.hpp); returns the number of mismatches.
int64_t run_sddmm(const std::string& what, const Matrix& m, const LaidOut& a, const Generated& x1, const Generated& x2,
                  float* d_out, const std::vector<int64_t>& entries);
int64_t run_spmm(const std::string& what, const Matrix& m, const LaidOut& a, bool transpose, const Generated& x,
                 const sddmm_dense_t& y, int64_t bytes, const std::vector<int64_t>& rows);

// The float32 CUDA handle, without values (all ones), of a laid-out pattern: its CSR offsets are
// uploaded and its col_idx generated on the device, both of index type `type`, and both freed once
// creation returns (the plan holds its own copy). Prints the steps with their times. Given
// heavy_row_entries, the plan is made while SDDMM_SPMM_HEAVY_ROW_ENTRIES is that and
// SDDMM_SPMM_HEAVY_ROW_FACTOR is 0 (no term from the mean row length): rows and columns above that
// many entries are heavy.
Matrix create_on_device(const LaidOut& a, sddmm_index_type_t type, const char* heavy_row_entries = nullptr);

}  // namespace sddmm::huge
