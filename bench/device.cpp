#include "device.hpp"

#include <utility>

namespace sddmm::bench {
namespace {

std::string where(const char* call, const char* file, int line) {
  return std::string(call) + " (" + file + ":" + std::to_string(line) + ")";
}

}  // namespace

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // an allocation failure is not sticky: clear it so the next case can run
    throw DeviceOutOfMemory("out of device memory in " + where(call, file, line));
  }
  throw std::runtime_error("CUDA error " + std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) +
                           ") in " + where(call, file, line));
}

void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  if (status == CUSPARSE_STATUS_ALLOC_FAILED) {
    throw DeviceOutOfMemory("cuSPARSE out of memory in " + where(call, file, line));
  }
  if (status == CUSPARSE_STATUS_NOT_SUPPORTED) {
    throw CusparseNotSupported("cuSPARSE does not support " + where(call, file, line));
  }
  throw std::runtime_error("cuSPARSE error " + std::string(cusparseGetErrorName(status)) + " (" +
                           cusparseGetErrorString(status) + ") in " + where(call, file, line));
}

void check_sddmm(sddmm_status_t status, const char* call, const char* file, int line) {
  if (status == SDDMM_STATUS_SUCCESS) return;
  const std::string message =
      std::string(sddmm_status_string(status)) + ": " + sddmm_last_error() + " in " + where(call, file, line);
  if (status == SDDMM_STATUS_OUT_OF_MEMORY) throw DeviceOutOfMemory(message);
  throw LibraryError(message);
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes) {
  if (bytes > 0) BENCH_CUDA(cudaMalloc(&data_, bytes));
}

DeviceBuffer::~DeviceBuffer() {
  if (data_ != nullptr) cudaFree(data_);  // a destructor cannot throw; a failed free leaks at worst
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) cudaFree(data_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

DeviceBuffer upload(const void* host, size_t bytes, cudaStream_t stream) {
  DeviceBuffer buffer(bytes);
  if (bytes > 0) BENCH_CUDA(cudaMemcpyAsync(buffer.get(), host, bytes, cudaMemcpyHostToDevice, stream));
  return buffer;
}

std::vector<DeviceBuffer> replicate(const std::vector<float>& host, int sets, cudaStream_t stream) {
  const size_t bytes = host.size() * sizeof(float);
  std::vector<DeviceBuffer> copies;
  for (int s = 0; s < sets; ++s) {
    copies.emplace_back(bytes);
    if (bytes == 0) continue;
    const bool first = s == 0;
    BENCH_CUDA(cudaMemcpyAsync(copies.back().get(), first ? host.data() : copies.front().get(), bytes,
                               first ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice, stream));
  }
  return copies;
}

std::vector<DeviceBuffer> allocate_filled(size_t count, size_t element_bytes, int sets, int byte, cudaStream_t stream) {
  std::vector<DeviceBuffer> buffers;
  for (int s = 0; s < sets; ++s) {
    buffers.emplace_back(count * element_bytes);
    if (count > 0) BENCH_CUDA(cudaMemsetAsync(buffers.back().get(), byte, count * element_bytes, stream));
  }
  return buffers;
}

std::vector<float> download(const DeviceBuffer& buffer, size_t count, cudaStream_t stream) {
  std::vector<float> host(count);
  if (count > buffer.bytes() / sizeof(float)) throw std::logic_error("download: more floats than the buffer holds");
  if (count > 0)
    BENCH_CUDA(cudaMemcpyAsync(host.data(), buffer.get(), count * sizeof(float), cudaMemcpyDeviceToHost, stream));
  BENCH_CUDA(cudaStreamSynchronize(stream));
  return host;
}

size_t free_device_memory() {
  size_t free_bytes = 0, total_bytes = 0;
  BENCH_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

}  // namespace sddmm::bench
