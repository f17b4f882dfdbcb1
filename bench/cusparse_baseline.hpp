// The reference the benchmark measures against: cuSPARSE's generic SDDMM and SpMM on CSR, fp32,
// 32-bit indices, each preprocessed (cusparse*_preprocess) outside the timed runs. Cases in other
// precisions run it on their rounded data widened back to fp32, to check against, untimed.
//
// Layouts, the same as ours is given:
//   SDDMM  X1 rows x K row-major (ld K); X2 K x cols column-major (ld K), i.e. each column of X2 is
//          K contiguous floats; output: the CSR values, in the same order as our COO entries.
//   SpMM   X cols x N row-major (ld N); Y rows x N row-major (ld N).
// cuSPARSE SDDMM computes C = alpha (X1 @ X2) o spy(C) + beta C: it does not multiply by A's values,
// so the check multiplies its output by them (check.hpp).
#pragma once

#include <cuda_runtime.h>
#include <cusparse.h>

#include <memory>
#include <string>
#include <vector>

#include "device.hpp"
#include "host_matrix.hpp"

namespace sddmm::bench {

struct SpMatDeleter {
  void operator()(cusparseSpMatDescr* d) const { cusparseDestroySpMat(d); }
};
struct DnMatDeleter {
  void operator()(cusparseDnMatDescr* d) const { cusparseDestroyDnMat(d); }
};
using SpMat = std::unique_ptr<cusparseSpMatDescr, SpMatDeleter>;
using DnMat = std::unique_ptr<cusparseDnMatDescr, DnMatDeleter>;

// A cuSPARSE handle bound to one stream.
class CusparseHandle {
 public:
  explicit CusparseHandle(cudaStream_t stream);
  ~CusparseHandle();
  CusparseHandle(const CusparseHandle&) = delete;
  CusparseHandle& operator=(const CusparseHandle&) = delete;
  cusparseHandle_t get() const { return handle_; }

 private:
  cusparseHandle_t handle_ = nullptr;
};

// One device copy of the CSR arrays: each rotation set has its own, so L2 cannot carry them over.
struct CsrArrays {
  DeviceBuffer offsets;  // (rows + 1) int32
  DeviceBuffer cols;     // (nnz) int32
  DeviceBuffer vals;     // (nnz) float, A's values (SpMM)
};
std::vector<CsrArrays> upload_csr(const HostMatrix& m, int sets, cudaStream_t stream);
// A copy of `pattern` with other values (nnz of them): A's values as a narrower type rounds them, for
// the reference of an SpMM in that type.
CsrArrays csr_with_values(const CsrArrays& pattern, const std::vector<float>& values, cudaStream_t stream);

// The dense operands of one SDDMM rotation set (layouts above). out receives cuSPARSE's result.
struct SddmmOperands {
  const float* x1;
  const float* x2;
  float* out;
};

class CusparseSddmm {
 public:
  // Creates descriptors for each set and runs cusparseSDDMM_preprocess on each.
  CusparseSddmm(cusparseHandle_t handle, const HostMatrix& m, const std::vector<CsrArrays>& csr, int64_t k,
                const std::vector<SddmmOperands>& sets);
  void run(int set) const;  // enqueues one SDDMM on set `set` (< sets.size())
  // How X2 was described: column-major, or (if cuSPARSE refused that) its transpose, row-major.
  const std::string& layout() const { return layout_; }

 private:
  struct Set {
    DnMat x1;
    DnMat x2;
    SpMat c;
    DeviceBuffer buffer;
  };
  void build(const HostMatrix& m, const std::vector<CsrArrays>& csr, int64_t k, const std::vector<SddmmOperands>& sets,
             bool x2_transposed);

  cusparseHandle_t handle_;
  cusparseOperation_t op_x2_ = CUSPARSE_OPERATION_NON_TRANSPOSE;
  std::string layout_;
  std::vector<Set> sets_;
};

// The dense operands of one SpMM rotation set. y receives cuSPARSE's result.
struct SpmmOperands {
  const float* x;
  float* y;
};

struct SpmmAlgorithm {
  cusparseSpMMAlg_t id;
  const char* name;
};
// DEFAULT, CSR_ALG1, CSR_ALG2, CSR_ALG3: the baseline is the fastest of these.
const std::vector<SpmmAlgorithm>& spmm_algorithms();

class CusparseSpmm {
 public:
  // Creates descriptors for each set and runs cusparseSpMM_preprocess on each. Throws
  // CusparseNotSupported if cuSPARSE refuses the algorithm for these operands.
  CusparseSpmm(cusparseHandle_t handle, const HostMatrix& m, const std::vector<CsrArrays>& csr, int64_t n,
               const std::vector<SpmmOperands>& sets, SpmmAlgorithm algorithm);
  void run(int set) const;

 private:
  struct Set {
    SpMat a;
    DnMat x;
    DnMat y;
    DeviceBuffer buffer;
  };
  cusparseHandle_t handle_;
  SpmmAlgorithm algorithm_;
  std::vector<Set> sets_;
};

}  // namespace sddmm::bench
