// The driver's functions, reached through the CUDA runtime's entry-point table: the library links
// the static runtime alone (it must load where no driver is installed), so it never links libcuda.
#pragma once

namespace sddmm::cuda {

// The driver function `symbol` with the interface of CUDA version `version` (12000: CUDA 12.0's),
// or nullptr where the driver offers none (the runtime's error is cleared). Not cached: callers
// look a function up once (a function-local static).
void* driver_function(const char* symbol, unsigned version);

}  // namespace sddmm::cuda
