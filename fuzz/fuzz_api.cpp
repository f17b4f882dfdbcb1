// libFuzzer harness over the C API on the CPU backend: creation from hostile COO/CSR arguments, then
// a few SDDMM and SpMM calls with hostile dense operands, from one input's bytes.
//
// The oracle, beyond "no crash, no sanitizer report": each call's arguments are classified while they
// are drawn (verdict.hpp); an invalid call must fail with a message and leave every byte of its
// outputs as it was, a valid one must succeed and give exactly the result computed here (values are
// small integers, so every sum is exact in any order; NaN and Inf compare as NaN and Inf); inputs are
// never written; INTERNAL_ERROR is always a finding.
//
// Build: cmake -DSDDMM_BUILD_FUZZ=ON with clang (scripts/fuzz.sh does it); run with fuzz/corpus.
#include <cmath>
#include <cstdint>
#include <vector>

#include "byte_reader.hpp"
#include "c_calls.h"
#include "dense_input.hpp"
#include "dtypes.hpp"
#include "sparse_input.hpp"
#include "storage.hpp"
#include "verdict.hpp"

namespace sddmm::fuzz {
namespace {

bool same(double got, double want) {
  return std::isnan(want) ? std::isnan(got) : got == want;
}

// Rounds a float64 result to the storage type, as the library stores it.
double stored(int t, double v) { return testkit::round_to(static_cast<sddmm_dtype_t>(t), v); }

void run_sddmm(ByteReader& in, const SparseInput& a, sddmm_matrix_t handle) {
  Verdict v;
  const int64_t k = in.byte() % 41;
  const int features = draw_features(in, a.dtype);
  DenseOperand x1 = draw_dense(in, a.rows, k, features, false, v);
  DenseOperand x2 = draw_dense(in, k, a.cols, features, false, v);
  const int out_dtype = draw_output(in, a.dtype, features);
  v.invalid(!is_dtype(out_dtype), "out_dtype is not a dtype");
  if (!x1.null_descriptor && !x2.null_descriptor) {
    v.invalid(x1.desc.rows != a.rows, "x1 has not A's rows");
    v.invalid(x2.desc.cols != a.cols, "x2 has not A's columns");
    v.invalid(x1.desc.cols != x2.desc.rows, "x1.cols != x2.rows");
    v.invalid(x1.dtype != x2.dtype || !is_supported(a.dtype, x1.dtype, out_dtype),
              "A's values, x1, x2 and out are not a supported dtype combination");
  }
  const uint8_t b = in.byte();
  const auto nnz = static_cast<size_t>(a.nnz);
  CallerMemory out;
  void* out_ptr = nullptr;
  if (b >= 248 && (x1.has_elements() || x2.has_elements())) {  // out aliases an input
    out_ptr = (x1.has_elements() ? x1 : x2).memory.get();
    v.invalid(nnz > 0, "out overlaps an input");
  } else if (b < 240 || b >= 248) {
    out = CallerMemory(nnz, dtype_size(out_dtype), b >= 230 ? b % 7 + 1 : 0, 0xA5);
    out_ptr = out.get();
    v.invalid(nnz > 0 && !out.aligned(), "out is not aligned to its element size");
  } else {
    v.invalid(nnz > 0, "out is NULL with nnz > 0");
  }
  const auto x1_before = x1.memory.bytes(), x2_before = x2.memory.bytes(), out_before = out.bytes();

  v.check(fuzz_sddmm_execute(handle, x1.get(), x2.get(), out_ptr, out_dtype), "sddmm_execute");
  if (v.must_fail() && out.bytes() != out_before) finding("a failed sddmm_execute wrote out");
  if (x1.memory.bytes() != x1_before || x2.memory.bytes() != x2_before) finding("sddmm_execute wrote an input");
  if (v.must_fail()) return;
  const int64_t k_valid = x1.desc.cols;  // K as the (valid) call has it: both operands may be perturbed alike
  for (size_t p = 0; p < nnz; ++p) {
    double acc = 0.0;
    for (int64_t kk = 0; kk < k_valid; ++kk) acc += x1.at(a.entry_row[p], kk) * x2.at(kk, a.entry_col[p]);
    const double want = stored(out_dtype, a.entry_value[p] * acc);
    if (!same(out.value(p, out_dtype), want)) finding("SDDMM out[%zu] = %g, expected %g", p, out.value(p, out_dtype), want);
  }
}

void run_spmm(ByteReader& in, const SparseInput& a, sddmm_matrix_t handle) {
  Verdict v;
  const uint8_t b = in.byte();
  const int operation = b < 250 ? b & 1 : 2 + b % 3;
  v.invalid(b >= 250, "operation is not a valid enum value");
  const bool transpose = operation == SDDMM_OPERATION_TRANSPOSE;
  const int64_t in_dim = transpose ? a.rows : a.cols, out_dim = transpose ? a.cols : a.rows;
  const int64_t n = in.byte() % 41;
  const int features = draw_features(in, a.dtype);
  DenseOperand x = draw_dense(in, in_dim, n, features, false, v);
  DenseOperand y = draw_dense(in, out_dim, n, draw_output(in, a.dtype, features), true, v);
  if (!x.null_descriptor && !y.null_descriptor) {
    v.invalid(!is_supported(a.dtype, x.dtype, y.dtype), "A's values, x and y are not a supported dtype combination");
    v.invalid(x.desc.rows != in_dim, "x has not op(A)'s columns as rows");
    v.invalid(y.desc.rows != out_dim, "y has not op(A)'s rows");
    v.invalid(x.desc.cols != y.desc.cols, "x and y disagree on N");
    if (x.has_elements() && y.has_elements() && in.chance(8)) {
      y.desc.data = x.memory.get();
      v.invalid(true, "y overlaps x");
    }
  }
  const auto x_before = x.memory.bytes(), y_before = y.memory.bytes();

  v.check(fuzz_spmm_execute(handle, x.get(), y.get(), operation), "spmm_execute");
  if (x.memory.bytes() != x_before) finding("spmm_execute wrote x");
  if (v.must_fail()) {
    if (y.memory.bytes() != y_before) finding("a failed spmm_execute wrote y");
    return;
  }
  if (!y.has_elements()) return;
  const int64_t n_valid = y.desc.cols;  // N as the (valid) call has it: x and y may be perturbed alike
  std::vector<double> want(static_cast<size_t>(out_dim * n_valid), 0.0);
  for (size_t e = 0; e < a.entry_row.size(); ++e) {
    const int64_t o = transpose ? a.entry_col[e] : a.entry_row[e];
    const int64_t i = transpose ? a.entry_row[e] : a.entry_col[e];
    for (int64_t j = 0; j < n_valid; ++j) want[static_cast<size_t>(o * n_valid + j)] += a.entry_value[e] * x.at(i, j);
  }
  std::vector<bool> in_window(static_cast<size_t>(y.extent), false);
  for (int64_t o = 0; o < out_dim; ++o) {
    for (int64_t j = 0; j < n_valid; ++j) {
      in_window[y.position(o, j)] = true;
      const double w = stored(y.dtype, want[static_cast<size_t>(o * n_valid + j)]);
      if (!same(y.at(o, j), w))
        finding("SpMM%s y(%lld, %lld) = %g, expected %g", transpose ? "^T" : "", (long long)o, (long long)j, y.at(o, j),
                w);
    }
  }
  const auto y_after = y.memory.bytes();
  const size_t element = dtype_size(y.dtype), skip = y_after.size() - static_cast<size_t>(y.extent) * element;
  for (size_t i = skip; i < y_after.size(); ++i) {
    if (!in_window[(i - skip) / element] && y_after[i] != y_before[i]) finding("spmm_execute wrote y's padding");
  }
}

}  // namespace
}  // namespace sddmm::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sddmm::fuzz;
  ByteReader in(data, size);
  Verdict v;
  const SparseInput a = draw_sparse_input(in, v);
  const bool null_handle_pointer = in.chance(2);
  v.invalid(null_handle_pointer, "the handle pointer is NULL");
  auto* const untouched = reinterpret_cast<sddmm_matrix_t>(uintptr_t{0x5eed});
  sddmm_matrix_t handle = untouched;
  const sddmm_status_t s = create(a, null_handle_pointer ? nullptr : &handle);
  v.check(s, "create");
  if (s != SDDMM_STATUS_SUCCESS) {
    if (handle != untouched) finding("a failed create wrote the handle");
    return 0;
  }
  int64_t rows = -1, cols = -1, nnz = -1;
  if (sddmm_get_shape(handle, &rows, &cols, &nnz) != SDDMM_STATUS_SUCCESS || rows != a.rows || cols != a.cols ||
      nnz != a.nnz) {
    finding("get_shape disagrees with the created shape");
  }
  for (int call = 0; call < 4 && !in.empty(); ++call) {
    if (in.byte() % 2 == 0) {
      run_sddmm(in, a, handle);
    } else {
      run_spmm(in, a, handle);
    }
  }
  if (sddmm_destroy(handle) != SDDMM_STATUS_SUCCESS) finding("destroy failed");
  return 0;
}
