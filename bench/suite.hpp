// The matrices a run measures: generated suites and Matrix Market files.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "coo.hpp"
#include "options.hpp"

namespace sddmm::bench {

struct MatrixSpec {
  std::string name;         // unique, short: the table's first column
  std::string description;  // what it is and why it is in the suite
  std::function<testkit::CooMatrix()> make;
};

// The matrices selected by --suite, --mtx, --data-dir and --only, in run order.
std::vector<MatrixSpec> select_matrices(const Options& options);

}  // namespace sddmm::bench
