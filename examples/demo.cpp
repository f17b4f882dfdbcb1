// sddmm-demo: builds a power-law graph (or reads --mtx FILE), runs SDDMM and SpMM on the GPU when
// there is one (the CPU otherwise), checks them against the CPU backend and prints times.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#ifdef SDDMM_DEMO_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include "generators.hpp"
#include "matrix_market.hpp"
#include "sddmm.h"

namespace {

struct Options {
  std::string mtx;
  int scale = 18;
  int64_t k = 64;
  int reps = 20;
  bool cpu_only = false;
};

void usage() {
  std::printf(
      "usage: sddmm-demo [--mtx FILE] [--scale S] [--k K] [--reps R] [--cpu]\n"
      "  default: an R-MAT power-law graph with 2^S vertices (S = 18), edge factor 16\n");
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--mtx" && has_value) o.mtx = argv[++i];
    else if (a == "--scale" && has_value) o.scale = std::atoi(argv[++i]);
    else if (a == "--k" && has_value) o.k = std::atoll(argv[++i]);
    else if (a == "--reps" && has_value) o.reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--cpu") o.cpu_only = true;
    else return false;
  }
  return o.scale > 0 && o.scale < 27 && o.k > 0;
}

void require(sddmm_status_t s, const char* what) {
  if (s == SDDMM_STATUS_SUCCESS) return;
  std::fprintf(stderr, "%s failed: %s: %s\n", what, sddmm_status_string(s), sddmm_last_error());
  std::exit(1);
}

bool gpu_available() {
#ifdef SDDMM_DEMO_HAVE_CUDA
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
#else
  return false;
#endif
}

// Host or device copy of a host vector, for the backend that runs.
struct Array {
  sddmm_backend_t backend;
  void* ptr = nullptr;
  size_t bytes = 0;
  template <typename T>
  Array(sddmm_backend_t b, const std::vector<T>& host) : backend(b), bytes(host.size() * sizeof(T)) {
    if (backend == SDDMM_BACKEND_CPU) {
      ptr = std::malloc(std::max<size_t>(bytes, 1));
      std::memcpy(ptr, host.data(), bytes);
      return;
    }
#ifdef SDDMM_DEMO_HAVE_CUDA
    if (cudaMalloc(&ptr, std::max<size_t>(bytes, 1)) != cudaSuccess ||
        cudaMemcpy(ptr, host.data(), bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
      std::fprintf(stderr, "device allocation of %zu bytes failed\n", bytes);
      std::exit(1);
    }
#endif
  }
  ~Array() {
    if (backend == SDDMM_BACKEND_CPU) std::free(ptr);
#ifdef SDDMM_DEMO_HAVE_CUDA
    else cudaFree(ptr);
#endif
  }
  template <typename T>
  std::vector<T> to_host() const {
    std::vector<T> host(bytes / sizeof(T));
    if (backend == SDDMM_BACKEND_CPU) std::memcpy(host.data(), ptr, bytes);
#ifdef SDDMM_DEMO_HAVE_CUDA
    else cudaMemcpy(host.data(), ptr, bytes, cudaMemcpyDeviceToHost);
#endif
    return host;
  }
};

void synchronize(sddmm_backend_t b) {
#ifdef SDDMM_DEMO_HAVE_CUDA
  if (b == SDDMM_BACKEND_CUDA) cudaDeviceSynchronize();
#else
  (void)b;
#endif
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Median wall time of `reps` runs after one warm-up.
double median_ms(sddmm_backend_t b, int reps, const std::function<void()>& run) {
  run();
  synchronize(b);
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    synchronize(b);
    t.push_back(1e3 * seconds_since(t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double max_relative_error(const std::vector<float>& got, const std::vector<float>& ref) {
  double scale = 0.0, err = 0.0;
  for (size_t i = 0; i < ref.size(); ++i) scale = std::max(scale, std::fabs(double(ref[i])));
  for (size_t i = 0; i < ref.size(); ++i) {
    const double d = std::fabs(double(got[i]) - double(ref[i]));
    err = std::isnan(d) ? INFINITY : std::max(err, d);
  }
  return scale > 0 ? err / scale : err;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    usage();
    return 2;
  }
  std::printf("sddmm %d.%d.%d (library reports %d)\n", SDDMM_VERSION_MAJOR, SDDMM_VERSION_MINOR, SDDMM_VERSION_PATCH,
              sddmm_version());
  const auto t_load = std::chrono::steady_clock::now();
  sddmm::testkit::CooMatrix a;
  try {
    a = o.mtx.empty() ? sddmm::testkit::rmat(o.scale, 16, 42) : sddmm::testkit::read_matrix_market(o.mtx);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cannot load the matrix: %s\n", e.what());
    return 1;
  }
  const std::string name = o.mtx.empty() ? "R-MAT scale " + std::to_string(o.scale) : o.mtx;
  std::printf("matrix: %s, %lld x %lld, %lld entries (%.2f s to build)\n", name.c_str(), (long long)a.rows,
              (long long)a.cols, (long long)a.nnz(), seconds_since(t_load));

  const sddmm_backend_t backend = (!o.cpu_only && gpu_available()) ? SDDMM_BACKEND_CUDA : SDDMM_BACKEND_CPU;
  std::printf("backend: %s\n", backend == SDDMM_BACKEND_CUDA ? "CUDA (GPU found)" : "CPU (OpenMP)");

  std::vector<int32_t> row(a.row.begin(), a.row.end()), col(a.col.begin(), a.col.end());
  std::vector<float> val(a.val.begin(), a.val.end());
  if (val.empty()) val.assign(row.size(), 1.0f);
  std::vector<float> x1(static_cast<size_t>(a.rows * o.k)), x2(static_cast<size_t>(a.cols * o.k));
  uint64_t s = 7;
  auto next = [&s] { s = s * 6364136223846793005ull + 1442695040888963407ull; return float((s >> 40) & 0xFFFF) / 65536.0f - 0.5f; };
  for (float& v : x1) v = next();
  for (float& v : x2) v = next();

  // The oracle: the CPU backend (float64 accumulation).
  sddmm_matrix_t ref = nullptr;
  require(sddmm_create_coo(&ref, a.rows, a.cols, a.nnz(), row.data(), col.data(), SDDMM_INDEX_INT32, val.data(),
                           SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CPU, 0, 0, nullptr), "create (CPU reference)");
  std::vector<float> ref_out(row.size()), ref_y(static_cast<size_t>(a.rows * o.k));
  sddmm_dense_t h1{x1.data(), a.rows, o.k, o.k, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  sddmm_dense_t h2{x2.data(), o.k, a.cols, o.k, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
  sddmm_dense_t hx{x2.data(), a.cols, o.k, o.k, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  sddmm_dense_t hy{ref_y.data(), a.rows, o.k, o.k, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  require(sddmm_execute(ref, &h1, &h2, ref_out.data(), SDDMM_DTYPE_FLOAT32, nullptr), "SDDMM (CPU reference)");
  require(spmm_execute(ref, &hx, &hy, SDDMM_OPERATION_NON_TRANSPOSE, nullptr), "SpMM (CPU reference)");

  Array d_row(backend, row), d_col(backend, col), d_val(backend, val), d_x1(backend, x1), d_x2(backend, x2);
  Array d_out(backend, std::vector<float>(row.size(), NAN)), d_y(backend, std::vector<float>(ref_y.size(), NAN));
  sddmm_matrix_t m = nullptr;
  const auto t_create = std::chrono::steady_clock::now();
  require(sddmm_create_coo(&m, a.rows, a.cols, a.nnz(), d_row.ptr, d_col.ptr, SDDMM_INDEX_INT32, d_val.ptr,
                           SDDMM_DTYPE_FLOAT32, backend, 0, 0, nullptr), "create");
  const double create_ms = 1e3 * seconds_since(t_create);
  sddmm_dense_t d1{d_x1.ptr, a.rows, o.k, o.k, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  sddmm_dense_t d2{d_x2.ptr, o.k, a.cols, o.k, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
  sddmm_dense_t dx{d_x2.ptr, a.cols, o.k, o.k, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  sddmm_dense_t dy{d_y.ptr, a.rows, o.k, o.k, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const double sddmm_ms = median_ms(backend, o.reps, [&] { require(sddmm_execute(m, &d1, &d2, d_out.ptr, SDDMM_DTYPE_FLOAT32, nullptr), "SDDMM"); });
  const double spmm_ms = median_ms(backend, o.reps, [&] { require(spmm_execute(m, &dx, &dy, SDDMM_OPERATION_NON_TRANSPOSE, nullptr), "SpMM"); });

  const double e_sddmm = max_relative_error(d_out.to_host<float>(), ref_out);
  const double e_spmm = max_relative_error(d_y.to_host<float>(), ref_y);
  const double tol = 1e-4;
  std::printf("plan creation: %9.3f ms\n", create_ms);
  std::printf("SDDMM K=%-4lld %9.3f ms  %7.1f GFLOP/s  max rel. error vs CPU reference %.2e  %s\n", (long long)o.k, sddmm_ms,
              2.0 * double(a.nnz()) * double(o.k) / (sddmm_ms * 1e6), e_sddmm, e_sddmm <= tol ? "ok" : "WRONG");
  std::printf("SpMM  N=%-4lld %9.3f ms  %7.1f GFLOP/s  max rel. error vs CPU reference %.2e  %s\n", (long long)o.k, spmm_ms,
              2.0 * double(a.nnz()) * double(o.k) / (spmm_ms * 1e6), e_spmm, e_spmm <= tol ? "ok" : "WRONG");
  sddmm_destroy(m);
  sddmm_destroy(ref);
  return e_sddmm <= tol && e_spmm <= tol ? 0 : 1;
}
