// Every requested op, K and precision on one matrix: rotation sets sized to the L2, our plans (one
// set per value type) and cuSPARSE's CSR copies made once, then the cases. Memory is freed before
// returning.
#pragma once

#include <vector>

#include "cases.hpp"
#include "host_matrix.hpp"
#include "report.hpp"

namespace sddmm::bench {

// One record per op x K x precision, each precision's right after the fp32 one of its op and K. A
// case that would not fit in device memory, or that our library fails, is recorded (status
// "skipped" or "ERROR") and the others still run; other CUDA errors throw.
std::vector<Record> run_matrix(const HostMatrix& m, const CaseContext& ctx);

}  // namespace sddmm::bench
