#include "run.hpp"

#include <cstdarg>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "device_fill.hpp"
#include "memory.hpp"
#include "scoped_env.hpp"

namespace sddmm::huge {
namespace {

const Stopwatch kSinceStart;

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

template <typename Index>
std::vector<Index> narrowed(const std::vector<int64_t>& v) {
  return std::vector<Index>(v.begin(), v.end());
}

}  // namespace

void say(const char* format, ...) {
  std::printf("[%7.1f s] ", kSinceStart.seconds());
  va_list args;
  va_start(args, format);
  std::vprintf(format, args);
  va_end(args);
  std::printf("\n");
  std::fflush(stdout);
}

void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(status));
}

void check_status(sddmm_status_t status, const char* call) {
  if (status != SDDMM_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + ": " + sddmm_status_string(status) + ": " + sddmm_last_error());
  }
}

std::string missing_device_memory(int64_t bytes) {
  size_t free = 0, total = 0;
  check_cuda(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  if (static_cast<double>(free) >= static_cast<double>(bytes)) return "";
  return "needs " + gib(static_cast<double>(bytes)) + " of free device memory, " + gib(static_cast<double>(free)) +
         " free of " + gib(static_cast<double>(total));
}

void poison(void* d, int64_t bytes) {
  check_cuda(cudaMemset(d, 0xFF, static_cast<size_t>(bytes)), "cudaMemset (poison)");
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize (poison)");
}

Matrix create_on_device(const LaidOut& a, sddmm_index_type_t type, const char* heavy_row_entries) {
  const bool wide = type == SDDMM_INDEX_INT64;
  const size_t index_bytes = wide ? 8 : 4;
  const Pattern& p = a.pattern;
  sddmm_matrix_t handle = nullptr;
  {
    const test::Buffer d_offsets = wide ? test::Buffer::from(SDDMM_BACKEND_CUDA, a.offsets)
                                        : test::Buffer::from(SDDMM_BACKEND_CUDA, narrowed<int32_t>(a.offsets));
    const test::Buffer d_col(SDDMM_BACKEND_CUDA, static_cast<size_t>(a.nnz()) * index_bytes);
    Stopwatch fill;
    fill_columns(p, d_offsets.get(), d_col.get(), type);
    say("col_idx (%lld entries) generated on the device in %.2f s", static_cast<long long>(a.nnz()), fill.seconds());
    Stopwatch create;
    const test::ScopedEnv heavy_entries("SDDMM_SPMM_HEAVY_ROW_ENTRIES", heavy_row_entries);
    const test::ScopedEnv heavy_factor("SDDMM_SPMM_HEAVY_ROW_FACTOR", heavy_row_entries != nullptr ? "0" : nullptr);
    check_status(sddmm_create_csr(&handle, p.rows, p.cols, a.nnz(), d_offsets.get(), d_col.get(), type, nullptr,
                                  SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CUDA, 0, 0, nullptr),
                 "sddmm_create_csr");
    say("handle created (CSR, %s indices) in %.2f s; the caller's arrays are freed now", wide ? "int64" : "int32",
        create.seconds());
  }
  return Matrix(handle);
}

int64_t run_sddmm(const std::string& what, const Matrix& m, const LaidOut& a, const Generated& x1, const Generated& x2,
                  float* d_out, const std::vector<int64_t>& entries) {
  poison(d_out, a.nnz() * static_cast<int64_t>(sizeof(float)));
  const Stopwatch run;
  check_status(sddmm_execute(m.get(), &x1.desc, &x2.desc, d_out, SDDMM_DTYPE_FLOAT32, nullptr), "sddmm_execute");
  check_cuda(cudaDeviceSynchronize(), "sddmm_execute (run)");
  say("%s: ran in %.3f s", what.c_str(), run.seconds());
  return check_sddmm(what, a, x1, x2, d_out, entries);
}

int64_t run_spmm(const std::string& what, const Matrix& m, const LaidOut& a, bool transpose, const Generated& x,
                 const sddmm_dense_t& y, int64_t bytes, const std::vector<int64_t>& rows) {
  poison(y.data, bytes);
  const Stopwatch run;
  const sddmm_operation_t op = transpose ? SDDMM_OPERATION_TRANSPOSE : SDDMM_OPERATION_NON_TRANSPOSE;
  check_status(spmm_execute(m.get(), &x.desc, &y, op, nullptr), "spmm_execute");
  check_cuda(cudaDeviceSynchronize(), "spmm_execute (run)");
  say("%s: ran in %.3f s", what.c_str(), run.seconds());
  return check_spmm(what, a, transpose, x, y, rows);
}

}  // namespace sddmm::huge
