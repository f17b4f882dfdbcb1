// Command line of sddmm-bench.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "precision.hpp"

namespace sddmm::bench {

enum class Op { kSddmm, kSpmm };
const char* op_name(Op op);

struct Options {
  std::string suite = "quick";  // quick | full | none (only --mtx / --data-dir files)
  std::vector<int64_t> ks = {32, 128, 256};
  std::vector<Op> ops = {Op::kSddmm, Op::kSpmm};
  // fp32 first, and always there: every other precision is compared with it in the same run.
  std::vector<Precision> precisions = {f32_precision()};
  bool gemm = false;  // time cuBLAS's dense GEMM beside SDDMM; on by default when another precision is asked
  int reps = 30;                       // timed runs per case; the median is reported
  int warmup = 5;                      // untimed runs before them
  std::vector<std::string> mtx_files;  // --mtx, and the *.mtx files of every --data-dir
  std::vector<std::string> only;       // keep matrices whose name contains any of these
  std::string json_path;
  std::string csv_path;
  int device = 0;
  bool list = false;  // print the matrices that would run, then stop
};

// Parses argv; throws std::invalid_argument with a message on a bad option. Returns false when
// the caller should print usage() and stop (--help).
bool parse_options(int argc, char** argv, Options& options);
std::string usage();

}  // namespace sddmm::bench
