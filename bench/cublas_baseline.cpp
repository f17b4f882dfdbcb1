#include "cublas_baseline.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "convert.hpp"
#include "device.hpp"

namespace sddmm::bench {
namespace {

// A cuBLAS status other than success or an allocation failure: the baseline is noted as failed
// and the run goes on.
struct CublasError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check_cublas(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const std::string message =
      std::string(cublasGetStatusName(status)) + " (" + cublasGetStatusString(status) + ") in " + call;
  if (status == CUBLAS_STATUS_ALLOC_FAILED) throw DeviceOutOfMemory("cuBLAS out of memory: " + message);
  throw CublasError("cuBLAS " + message);
}

#define BENCH_CUBLAS(call) check_cublas((call), #call)

// Entries whose product elements are checked: spread over the matrix, first and last included,
// few enough to copy one by one.
constexpr int64_t kGemmSamples = 64;

cudaDataType cuda_type(sddmm_dtype_t dtype) {
  switch (dtype) {
    case SDDMM_DTYPE_FLOAT32:
      return CUDA_R_32F;
    case SDDMM_DTYPE_FLOAT16:
      return CUDA_R_16F;
    case SDDMM_DTYPE_BFLOAT16:
      return CUDA_R_16BF;
    default:
      break;
  }
  throw std::logic_error("the GEMM baseline has no float64 case");
}

// D = X1 X2: rows x cols, column-major, ld = rows. cuBLAS is column-major. X1's memory (rows x K
// row-major, ld K) is the column-major K x rows matrix X1^T, so A = that memory with op T (lda = K)
// is X1. X2's memory (K x cols column-major, ld K) is B as it stands, op N (ldb = K). With m = rows,
// n = cols, k = K, D(i, j) = sum_k X1(i, k) X2(k, j) lands at d[i + j * rows].
void run_gemm(cublasHandle_t handle, const HostMatrix& m, int64_t k, const Precision& p, const void* x1, const void* x2,
              void* d) {
  const float one = 1.0f, zero = 0.0f;  // CUBLAS_COMPUTE_32F(_FAST_TF32) takes float scalars
  const cublasComputeType_t compute =
      (p.create_flags & SDDMM_CREATE_ALLOW_TF32) != 0 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  BENCH_CUBLAS(cublasGemmEx_64(handle, CUBLAS_OP_T, CUBLAS_OP_N, m.rows, m.cols, k, &one, x1, cuda_type(p.features), k,
                               x2, cuda_type(p.features), k, &zero, d, cuda_type(p.output), m.rows, compute,
                               CUBLAS_GEMM_DEFAULT));
}

std::vector<int64_t> sample_entries(int64_t nnz) {
  const int64_t count = std::min(kGemmSamples, nnz);
  std::vector<int64_t> entries;
  for (int64_t i = 0; i < count; ++i) entries.push_back(count == 1 ? 0 : i * (nnz - 1) / (count - 1));
  return entries;
}

// D's elements at the entries' (row, col), as floats.
std::vector<float> download_samples(const DeviceBuffer& d, const HostMatrix& m, const std::vector<int64_t>& entries,
                                    sddmm_dtype_t dtype, cudaStream_t stream) {
  const size_t bytes = dtype_bytes(dtype);
  const DeviceBuffer gathered(entries.size() * bytes);
  for (size_t i = 0; i < entries.size(); ++i) {
    const size_t p = static_cast<size_t>(entries[i]);
    const size_t element = static_cast<size_t>(m.row[p]) + static_cast<size_t>(m.col[p]) * static_cast<size_t>(m.rows);
    BENCH_CUDA(cudaMemcpyAsync(gathered.as<char>() + i * bytes, d.as<const char>() + element * bytes, bytes,
                               cudaMemcpyDeviceToDevice, stream));
  }
  return download_as_f32(gathered, dtype, entries.size(), stream);
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

}  // namespace

CublasHandle::CublasHandle(cudaStream_t stream) {
  BENCH_CUBLAS(cublasCreate(&handle_));
  try {
    BENCH_CUBLAS(cublasSetStream(handle_, stream));
  } catch (...) {
    cublasDestroy(handle_);
    throw;
  }
}

CublasHandle::~CublasHandle() {
  cublasDestroy(handle_);
}

int CublasHandle::version() const {
  int version = 0;
  BENCH_CUBLAS(cublasGetVersion(handle_, &version));
  return version;
}

void measure_gemm(Record& record, const HostMatrix& m, int64_t k, const Precision& precision, const Operand& x1,
                  const Operand& x2, int sets, const std::vector<float>& products, const CaseContext& ctx) {
  const auto give_up = [&](const std::string& status, const std::string& why) {
    record.gemm_status = status;
    add_note(record, "cuBLAS GEMM " + status + ": " + why);
  };
  const double bytes =
      static_cast<double>(m.rows) * static_cast<double>(m.cols) * static_cast<double>(dtype_bytes(precision.output));
  if (bytes > kGemmOutputCapBytes) {
    return give_up("skipped",
                   "its rows x cols output would take " + gib(bytes) + " (cap " + gib(kGemmOutputCapBytes) + ")");
  }
  const cudaStream_t stream = ctx.stream;
  try {
    const DeviceBuffer d(static_cast<size_t>(bytes));
    BENCH_CUDA(cudaMemsetAsync(d.get(), 0xFF, d.bytes(), stream));  // NaN: an element left unwritten fails
    const auto run = [&](int set) { run_gemm(ctx.cublas, m, k, precision, x1.stored(set), x2.stored(set), d.get()); };
    run(0);
    if (products.empty()) {
      record.gemm_status = "unchecked";
    } else {
      const std::vector<int64_t> entries = sample_entries(m.nnz);
      const CheckResult check = check_product_samples(
          m, k, precision.output, product_error(precision), entries,
          download_samples(d, m, entries, precision.output, stream), products);
      if (!check.pass) {
        return give_up("WRONG", std::to_string(check.bad) + " of " + std::to_string(entries.size()) +
                                    " sampled elements disagree with cuSPARSE, first " + check.first_bad);
      }
      record.gemm_status = "ok";
    }
    record.gemm_ms = time_runs(stream, ctx.options.warmup, ctx.options.reps, [&](int i) { run(i % sets); }).median_ms;
  } catch (const DeviceOutOfMemory& e) {
    give_up("skipped", e.what());
  } catch (const CublasError& e) {
    give_up("error", e.what());
  }
}

}  // namespace sddmm::bench
