// The cost of "compute everything, then sample": cuBLAS's dense GEMM of the whole rows x cols
// product X1 X2, in the case's storage types with fp32 accumulation (CUBLAS_COMPUTE_32F, which for
// fp32 data means no TF32; CUBLAS_COMPUTE_32F_FAST_TF32 for the `tf32` precision, where ours may
// use TF32 too), timed beside our SDDMM. Picking the stored entries out of the product
// and scaling them by A's values would cost more on top; the time is the GEMM's alone.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cases.hpp"

namespace sddmm::bench {

// A cuBLAS handle bound to one stream.
class CublasHandle {
 public:
  explicit CublasHandle(cudaStream_t stream);
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }
  int version() const;

 private:
  cublasHandle_t handle_ = nullptr;
};

// A GEMM whose rows x cols output would take more than this is not run (noted as skipped): the
// dense product of a 685000^2 matrix would take 0.9 TB in fp16.
constexpr double kGemmOutputCapBytes = 8.0 * 1024 * 1024 * 1024;

// Times the GEMM on the case's operands, rotating through their sets as ours does, into
// record.gemm_ms and record.gemm_status. First, samples of its output are checked against
// `products`, cuSPARSE's SDDMM output on the same rounded operands (X1 X2 at each entry, no values),
// so that a layout mistake shows as "WRONG" instead of as a time; none given: "unchecked".
void measure_gemm(Record& record, const HostMatrix& m, int64_t k, const Precision& precision, const Operand& x1,
                  const Operand& x2, int sets, const std::vector<float>& products, const CaseContext& ctx);

}  // namespace sddmm::bench
