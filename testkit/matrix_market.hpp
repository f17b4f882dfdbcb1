// Matrix Market (coordinate) reader: real / integer / pattern fields, general / symmetric /
// skew-symmetric storage (mirrored into both triangles), comments, 1-based indices.
#pragma once

#include <string>

#include "coo.hpp"

namespace sddmm::testkit {

// Throws std::runtime_error naming the file and line on anything malformed or unsupported.
CooMatrix read_matrix_market(const std::string& path);

}  // namespace sddmm::testkit
