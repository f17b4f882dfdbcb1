// Every rejected input of the C API, run against one backend: each asserts the status, that the
// message names the argument, that outputs are byte-identical to the sentinel written before the
// call, and that the next valid call succeeds.
#pragma once

#include "sddmm.h"

namespace sddmm::test {

void check_create_rejections(sddmm_backend_t backend);
void check_execute_rejections(sddmm_backend_t backend);

}  // namespace sddmm::test
