#include "sampled_check.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "random.hpp"
#include "run.hpp"

namespace sddmm::huge {
namespace {

// Counts mismatches and prints the first few.
class Tally {
 public:
  explicit Tally(std::string what) : what_(std::move(what)) {}

  void compare(double got, double want, int64_t i, int64_t j) {
    ++checked_;
    if (got == want) return;  // NaN (unwritten) never equals
    if (++mismatches_ <= kShown)
      std::printf("  MISMATCH %s at (%lld, %lld): %.6g, want %.6g\n", what_.c_str(), static_cast<long long>(i),
                  static_cast<long long>(j), got, want);
  }
  int64_t finish() const {
    say("%s: %lld outputs checked, %lld mismatches", what_.c_str(), static_cast<long long>(checked_),
        static_cast<long long>(mismatches_));
    return mismatches_;
  }

 private:
  static constexpr int64_t kShown = 8;
  std::string what_;
  int64_t checked_ = 0;
  int64_t mismatches_ = 0;
};

// Row i of y (y.cols floats), wherever its layout puts them.
std::vector<float> download_row(const sddmm_dense_t& y, int64_t i) {
  const bool row_major = y.layout == SDDMM_LAYOUT_ROW_MAJOR;
  const float* first = static_cast<const float*>(y.data) + (row_major ? i * y.ld : i);
  const size_t pitch = sizeof(float) * static_cast<size_t>(row_major ? 1 : y.ld);
  std::vector<float> row(static_cast<size_t>(y.cols));
  check_cuda(cudaMemcpy2D(row.data(), sizeof(float), first, pitch, sizeof(float), row.size(), cudaMemcpyDeviceToHost),
             "cudaMemcpy2D (a row of y)");
  return row;
}

}  // namespace

double Generated::at(int64_t i, int64_t j) const {
  const bool row_major = desc.layout == SDDMM_LAYOUT_ROW_MAJOR;
  return dense_value(seed, row_major ? i * desc.ld + j : j * desc.ld + i);
}

std::vector<int64_t> sample_positions(int64_t n, int64_t count, uint64_t seed, std::vector<int64_t> always) {
  testkit::SplitMix64 rng(seed);
  std::vector<int64_t> positions;
  for (int64_t p : always) {
    if (p >= 0 && p < n) positions.push_back(p);
  }
  for (int64_t s = 0; s < count; ++s) positions.push_back(static_cast<int64_t>(rng.below(static_cast<uint64_t>(n))));
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

int64_t check_sddmm(const std::string& what, const LaidOut& a, const Generated& x1, const Generated& x2,
                    const float* d_out, const std::vector<int64_t>& entries) {
  Tally tally(what);
  for (int64_t e : entries) {
    const int64_t r = a.row_of(e);
    const int64_t c = a.pattern.column(r, e - a.offsets[r]);
    double want = 0.0;
    for (int64_t k = 0; k < x1.desc.cols; ++k) want += x1.at(r, k) * x2.at(k, c);
    float got = 0.0f;
    check_cuda(cudaMemcpy(&got, d_out + e, sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy (an SDDMM output)");
    tally.compare(got, want, r, c);
  }
  return tally.finish();
}

int64_t check_spmm(const std::string& what, const LaidOut& a, bool transpose, const Generated& x,
                   const sddmm_dense_t& y, const std::vector<int64_t>& rows) {
  Tally tally(what);
  for (int64_t o : rows) {
    const std::vector<int64_t> inner = transpose ? a.rows_of_column(o) : a.columns_of_row(o);
    const std::vector<float> got = download_row(y, o);
    for (int64_t j = 0; j < y.cols; ++j) {
      double want = 0.0;
      for (int64_t i : inner) want += x.at(i, j);
      tally.compare(got[static_cast<size_t>(j)], want, o, j);
    }
  }
  return tally.finish();
}

}  // namespace sddmm::huge
