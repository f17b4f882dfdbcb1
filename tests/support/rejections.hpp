// Every rejected input of the C API, run against one backend: each asserts the status, that the
// message names the argument, that outputs are byte-identical to the sentinel written before the
// call, and that the next valid call succeeds.
#pragma once

#include "sddmm.h"

namespace sddmm::test {

void check_create_rejections(sddmm_backend_t backend);
void check_execute_rejections(sddmm_backend_t backend);

// Every (values, features, output) combination of the four dtypes, with x1 and x2 of SDDMM also
// apart, SDDMM and SpMM (rejections_dtypes.cpp): a handle is created for every value dtype; a
// supported combination gives the exact result; any other is NOT_SUPPORTED with a message that names
// the argument and lists what is offered, its output byte-identical to the sentinel, and the next
// valid call works.
void check_dtype_combinations(sddmm_backend_t backend);

// The checks that depend on the element size, with 2-byte elements: values, x1, out and y one byte
// off are refused (two bytes off is aligned), and an operand's extent is counted in 2-byte elements.
void check_two_byte_element_checks(sddmm_backend_t backend);

}  // namespace sddmm::test
