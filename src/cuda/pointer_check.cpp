// Where a caller's pointer lives and how far its memory reaches (cuda/pointer_check.hpp).
#include "cuda/pointer_check.hpp"

#include <cuda.h>  // the driver's types only: the driver itself is reached through the runtime
#include <cuda_runtime.h>

#include "cuda/driver_entry.hpp"
#include "cuda/runtime.cuh"

namespace sddmm::cuda {
namespace {

using PointerGetAttributes = CUresult (*)(unsigned int, CUpointer_attribute*, void**, CUdeviceptr);

// cuPointerGetAttributes, looked up once per process (cuda/driver_entry.hpp). Every driver that
// runs this library's runtime (CUDA 13: 580 or later) has it; should the lookup still fail, every
// CUDA call on pointers says so as CUDA_ERROR. 12000: the version of the function's interface
// asked for (unchanged since CUDA 7).
PointerGetAttributes driver_query() {
  static const PointerGetAttributes query =
      reinterpret_cast<PointerGetAttributes>(driver_function("cuPointerGetAttributes", 12000));
  return query;
}

// What the driver says of one address: the allocation (or registered host range) around it, and
// the piece of physical memory mapped there. The allocation's range is exact for cudaMalloc,
// stream-ordered pools, pinned and managed memory (probed on the H200, driver 580: bench/
// RESULTS.md, 2026-11-27); for virtual memory (cuMemAddressReserve and cuMemMap, as caching
// allocators use) it is the whole reservation, mapped or not, and only the mappings say which
// parts are memory. tests/cuda/extent_test.cpp holds cudaMalloc, pools and virtual memory to it.
struct Allocation {
  unsigned int memory_type = 0;  // CUmemorytype; 0: no memory CUDA knows
  int device = -2;
  unsigned int managed = 0;
  CUdeviceptr start = 0;
  size_t size = 0;
  CUdeviceptr mapping_start = 0;
  size_t mapping_size = 0;  // 0 where the driver tells no mapping

  bool known() const { return memory_type != 0; }
  CUdeviceptr end() const { return start + size; }
  CUdeviceptr mapping_end() const { return mapping_start + mapping_size; }
};

Allocation query_allocation(PointerGetAttributes query, CUdeviceptr address) {
  Allocation a;
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                      CU_POINTER_ATTRIBUTE_IS_MANAGED,  CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                      CU_POINTER_ATTRIBUTE_RANGE_SIZE,  CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR,
                                      CU_POINTER_ATTRIBUTE_MAPPING_SIZE};
  void* values[] = {&a.memory_type, &a.device, &a.managed, &a.start, &a.size, &a.mapping_start, &a.mapping_size};
  const CUresult status = query(7, attributes, values, address);
  if (status == CUDA_ERROR_INVALID_VALUE) return Allocation{};  // not an address CUDA knows
  // The driver's and the runtime's codes agree for the errors that can come here (a sticky kernel
  // fault, a dead driver), so check() names them as for any runtime call.
  if (status != CUDA_SUCCESS) check(static_cast<cudaError_t>(status), "cuPointerGetAttributes");
  return a;
}

// The location rule of require_device_memory for one allocation; throws INVALID_POINTER.
void require_usable(const Allocation& a, int device, const char* name, const char* where) {
  if (!a.known()) {
    fail(SDDMM_STATUS_INVALID_POINTER, name, where,
         "is host memory or no memory at all, but the handle runs on CUDA device ", device, ": pass device memory");
  }
  if (a.memory_type == CU_MEMORYTYPE_DEVICE && a.managed == 0 && a.device != device) {
    fail(SDDMM_STATUS_INVALID_POINTER, name, where, "is memory of CUDA device ", a.device,
         " but the handle runs on device ", device);
  }
}

}  // namespace

void require_device_memory(const void* ptr, int64_t bytes, int device, const char* name) {
  if (ptr == nullptr) return;
  const PointerGetAttributes query = driver_query();
  if (query == nullptr) {
    fail(SDDMM_STATUS_CUDA_ERROR,
         "the CUDA driver offers no cuPointerGetAttributes through the runtime's entry points: ", name,
         " cannot be checked");
  }

  const auto address = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(ptr));
  const Allocation first = query_allocation(query, address);
  require_usable(first, device, name, " ");
  if (bytes <= 0 || first.size == 0) return;  // nothing to reach, or a driver that tells no range
  const auto extent = static_cast<CUdeviceptr>(bytes);
  if (extent > ~CUdeviceptr{0} - address) {
    fail(SDDMM_STATUS_INVALID_POINTER, name, " spans ", bytes, " bytes, past the end of the address space");
  }
  const CUdeviceptr end = address + extent;
  if (end > first.end()) {
    fail(SDDMM_STATUS_INVALID_POINTER, name, " spans ", bytes, " bytes, but its allocation ends ",
         first.end() - address, " bytes past it: pass a buffer that holds the whole extent its descriptor describes");
  }
  // Device memory may be a reservation mapped in pieces: walk the mappings until they cover the
  // extent (for cudaMalloc and pools the first mapping covers the allocation: one query in all).
  // Managed and host memory are allocations whole, and no walk is needed.
  if (first.memory_type != CU_MEMORYTYPE_DEVICE || first.managed != 0 || first.mapping_size == 0) return;
  for (CUdeviceptr reached = first.mapping_end(); reached < end;) {
    const Allocation next = query_allocation(query, reached);
    if (!next.known() || next.mapping_size == 0 || next.mapping_end() <= reached) {  // nothing mapped at `reached`
      fail(SDDMM_STATUS_INVALID_POINTER, name, " spans ", bytes, " bytes, but only ", reached - address,
           " bytes past it are mapped: pass a buffer that holds the whole extent its descriptor describes");
    }
    require_usable(next, device, name, ": the memory its extent runs into ");
    reached = next.mapping_end();
  }
}

}  // namespace sddmm::cuda
