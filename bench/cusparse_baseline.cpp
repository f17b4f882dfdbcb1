#include "cusparse_baseline.hpp"

#include <algorithm>
#include <stdexcept>

namespace sddmm::bench {
namespace {

const float kOne = 1.0f;
const float kZero = 0.0f;

SpMat make_csr(const HostMatrix& m, const CsrArrays& csr, void* values) {
  cusparseSpMatDescr_t d = nullptr;
  BENCH_CUSPARSE(cusparseCreateCsr(&d, m.rows, m.cols, m.nnz, csr.offsets.get(), csr.cols.get(), values,
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  return SpMat(d);
}

DnMat make_dense(int64_t rows, int64_t cols, int64_t ld, const float* data, cusparseOrder_t order) {
  cusparseDnMatDescr_t d = nullptr;
  // cuSPARSE takes void* even for inputs; it does not write X1, X2 or X.
  BENCH_CUSPARSE(cusparseCreateDnMat(&d, rows, cols, ld, const_cast<float*>(data), CUDA_R_32F, order));
  return DnMat(d);
}

// A workspace of at least one byte: cuSPARSE is then never handed a null buffer, whatever it makes
// of a zero size.
DeviceBuffer workspace(size_t bytes) { return DeviceBuffer(std::max<size_t>(bytes, 1)); }

}  // namespace

CusparseHandle::CusparseHandle(cudaStream_t stream) {
  BENCH_CUSPARSE(cusparseCreate(&handle_));
  try {
    BENCH_CUSPARSE(cusparseSetStream(handle_, stream));
  } catch (...) {
    cusparseDestroy(handle_);
    throw;
  }
}

CusparseHandle::~CusparseHandle() { cusparseDestroy(handle_); }

std::vector<CsrArrays> upload_csr(const HostMatrix& m, int sets, cudaStream_t stream) {
  std::vector<CsrArrays> copies;
  for (int s = 0; s < sets; ++s) {
    CsrArrays arrays{DeviceBuffer(m.row_offsets.size() * sizeof(int32_t)), DeviceBuffer(m.col.size() * sizeof(int32_t)),
                     DeviceBuffer(m.val.size() * sizeof(float))};
    // The first set comes from the host, the others from the first (device-to-device is faster).
    const bool first = s == 0;
    const cudaMemcpyKind kind = first ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice;
    const void* offsets = first ? static_cast<const void*>(m.row_offsets.data()) : copies[0].offsets.get();
    const void* cols = first ? static_cast<const void*>(m.col.data()) : copies[0].cols.get();
    const void* vals = first ? static_cast<const void*>(m.val.data()) : copies[0].vals.get();
    BENCH_CUDA(cudaMemcpyAsync(arrays.offsets.get(), offsets, arrays.offsets.bytes(), kind, stream));
    if (m.nnz > 0) {
      BENCH_CUDA(cudaMemcpyAsync(arrays.cols.get(), cols, arrays.cols.bytes(), kind, stream));
      BENCH_CUDA(cudaMemcpyAsync(arrays.vals.get(), vals, arrays.vals.bytes(), kind, stream));
    }
    copies.push_back(std::move(arrays));
  }
  BENCH_CUDA(cudaStreamSynchronize(stream));
  return copies;
}

CsrArrays csr_with_values(const CsrArrays& pattern, const std::vector<float>& values, cudaStream_t stream) {
  if (values.size() * sizeof(float) != pattern.vals.bytes()) throw std::logic_error("csr_with_values: not nnz values");
  CsrArrays arrays{DeviceBuffer(pattern.offsets.bytes()), DeviceBuffer(pattern.cols.bytes()),
                   upload(values.data(), pattern.vals.bytes(), stream)};
  BENCH_CUDA(cudaMemcpyAsync(arrays.offsets.get(), pattern.offsets.get(), pattern.offsets.bytes(),
                             cudaMemcpyDeviceToDevice, stream));
  if (pattern.cols.bytes() > 0) {
    BENCH_CUDA(
        cudaMemcpyAsync(arrays.cols.get(), pattern.cols.get(), pattern.cols.bytes(), cudaMemcpyDeviceToDevice, stream));
  }
  return arrays;
}

CusparseSddmm::CusparseSddmm(cusparseHandle_t handle, const HostMatrix& m, const std::vector<CsrArrays>& csr, int64_t k,
                             const std::vector<SddmmOperands>& sets)
    : handle_(handle) {
  try {
    build(m, csr, k, sets, false);
  } catch (const CusparseNotSupported&) {
    sets_.clear();
    build(m, csr, k, sets, true);
  }
}

void CusparseSddmm::build(const HostMatrix& m, const std::vector<CsrArrays>& csr, int64_t k,
                          const std::vector<SddmmOperands>& sets, bool x2_transposed) {
  op_x2_ = x2_transposed ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
  layout_ = x2_transposed ? "X2 given as its transpose (cols x K row-major, opB=T)" : "X2 column-major";
  for (size_t s = 0; s < sets.size(); ++s) {
    Set set;
    set.x1 = make_dense(m.rows, k, k, sets[s].x1, CUSPARSE_ORDER_ROW);
    // The same memory either way: column j of X2 is K contiguous floats at x2 + j * K.
    set.x2 = x2_transposed ? make_dense(m.cols, k, k, sets[s].x2, CUSPARSE_ORDER_ROW)
                           : make_dense(k, m.cols, k, sets[s].x2, CUSPARSE_ORDER_COL);
    set.c = make_csr(m, csr[s], sets[s].out);
    size_t bytes = 0;
    BENCH_CUSPARSE(cusparseSDDMM_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, op_x2_, &kOne, set.x1.get(),
                                            set.x2.get(), &kZero, set.c.get(), CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT,
                                            &bytes));
    set.buffer = workspace(bytes);
    // Each matC has its own buffer: cuSPARSE keeps one active preprocess buffer per matC.
    BENCH_CUSPARSE(cusparseSDDMM_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, op_x2_, &kOne, set.x1.get(),
                                            set.x2.get(), &kZero, set.c.get(), CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT,
                                            set.buffer.get()));
    sets_.push_back(std::move(set));
  }
}

void CusparseSddmm::run(int set) const {
  const Set& s = sets_.at(static_cast<size_t>(set));
  BENCH_CUSPARSE(cusparseSDDMM(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, op_x2_, &kOne, s.x1.get(), s.x2.get(), &kZero,
                               s.c.get(), CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, s.buffer.get()));
}

const std::vector<SpmmAlgorithm>& spmm_algorithms() {
  static const std::vector<SpmmAlgorithm> algorithms = {
      {CUSPARSE_SPMM_ALG_DEFAULT, "DEFAULT"},
      {CUSPARSE_SPMM_CSR_ALG1, "CSR_ALG1"},
      {CUSPARSE_SPMM_CSR_ALG2, "CSR_ALG2"},
      {CUSPARSE_SPMM_CSR_ALG3, "CSR_ALG3"},
  };
  return algorithms;
}

CusparseSpmm::CusparseSpmm(cusparseHandle_t handle, const HostMatrix& m, const std::vector<CsrArrays>& csr, int64_t n,
                           const std::vector<SpmmOperands>& sets, SpmmAlgorithm algorithm)
    : handle_(handle), algorithm_(algorithm) {
  for (size_t s = 0; s < sets.size(); ++s) {
    Set set;
    set.a = make_csr(m, csr[s], csr[s].vals.get());
    set.x = make_dense(m.cols, n, n, sets[s].x, CUSPARSE_ORDER_ROW);
    set.y = make_dense(m.rows, n, n, sets[s].y, CUSPARSE_ORDER_ROW);
    size_t bytes = 0;
    BENCH_CUSPARSE(cusparseSpMM_bufferSize(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &kOne, set.a.get(), set.x.get(), &kZero, set.y.get(), CUDA_R_32F,
                                           algorithm_.id, &bytes));
    set.buffer = workspace(bytes);
    BENCH_CUSPARSE(cusparseSpMM_preprocess(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &kOne, set.a.get(), set.x.get(), &kZero, set.y.get(), CUDA_R_32F,
                                           algorithm_.id, set.buffer.get()));
    sets_.push_back(std::move(set));
  }
}

void CusparseSpmm::run(int set) const {
  const Set& s = sets_.at(static_cast<size_t>(set));
  BENCH_CUSPARSE(cusparseSpMM(handle_, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &kOne,
                              s.a.get(), s.x.get(), &kZero, s.y.get(), CUDA_R_32F, algorithm_.id, s.buffer.get()));
}

}  // namespace sddmm::bench
