// The two parts of sddmm-huge-check (main.cpp): each prints its progress, checks sampled outputs
// and returns kPassed, kFailed (a mismatch), or kSkipped (after a line "SKIPPED: why").
#pragma once

#include "run.hpp"

namespace sddmm::huge {

Outcome check_nnz_beyond_int32();      // (a) nnz_beyond_int32.cpp
Outcome check_offsets_beyond_int32();  // (b) offsets_beyond_int32.cpp

}  // namespace sddmm::huge
