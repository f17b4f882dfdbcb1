// sddmm-bench: libsddmm against cuSPARSE (and cuBLAS's dense GEMM) on an NVIDIA GPU. See
// bench/RESULTS.md for the method.
//
// Exit status: 0 all checks passed; 1 a check failed, our library returned an error, or the GEMM
// baseline's samples disagreed with cuSPARSE; 2 bad command line; 3 the run stopped on an error (the
// partial table is still printed).
#include <cuda_runtime.h>
#include <cusparse.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cases.hpp"
#include "cublas_baseline.hpp"
#include "cusparse_baseline.hpp"
#include "device.hpp"
#include "host_matrix.hpp"
#include "options.hpp"
#include "report.hpp"
#include "run_matrix.hpp"
#include "sddmm.h"
#include "suite.hpp"
#include "timing.hpp"

namespace sddmm::bench {
namespace {

class Stream {
 public:
  Stream() { BENCH_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Progress on stderr, each line stamped with the time since the start.
class Progress {
 public:
  void operator()(const std::string& text) const {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "[%7.1f s] %s\n", seconds, text.c_str());
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string local_time_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  localtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S%z", &parts);
  return text;
}

RunInfo run_info(const Options& options, const DeviceInfo& device, cusparseHandle_t cusparse,
                 const std::optional<CublasHandle>& cublas) {
  RunInfo info;
  info.device = device;
  info.started = local_time_now();
  info.library_version = sddmm_version();
  BENCH_CUDA(cudaRuntimeGetVersion(&info.cuda_runtime_version));
  BENCH_CUDA(cudaDriverGetVersion(&info.cuda_driver_version));
  BENCH_CUSPARSE(cusparseGetVersion(cusparse, &info.cusparse_version));
  if (cublas) info.cublas_version = cublas->version();
  for (const Precision& p : options.precisions) info.dtypes.push_back(p.name);
  info.reps = options.reps;
  info.warmup = options.warmup;
  return info;
}

// Records for a matrix that could not be built or converted: one per op x K x precision, skipped.
void record_unbuilt(std::vector<Record>& records, const std::string& name, const Options& options,
                    const std::string& why) {
  for (Op op : options.ops) {
    for (int64_t k : options.ks) {
      for (const Precision& precision : options.precisions) {
        Record record;
        record.matrix = name;
        record.op = op_name(op);
        record.k = k;
        record.dtype = precision.name;
        record.status = "skipped";
        record.note = why;
        records.push_back(record);
      }
    }
  }
}

void finish(const std::vector<Record>& records, const RunInfo& info, const Options& options) {
  std::cout << "\n";
  print_table(std::cout, records);
  print_summary(std::cout, records, info);
  if (!options.json_path.empty()) write_json(options.json_path, records, info);
  if (!options.csv_path.empty()) write_csv(options.csv_path, records);
}

int run(const Options& options, const std::vector<MatrixSpec>& specs) {
  const Progress log;
  BENCH_CUDA(cudaSetDevice(options.device));
  const Stream stream;
  const DeviceInfo device = query_device(options.device, stream.get());
  const CusparseHandle cusparse(stream.get());
  std::optional<CublasHandle> cublas;
  if (options.gemm) cublas.emplace(stream.get());
  const RunInfo info = run_info(options, device, cusparse.get(), cublas);
  log(device.name + ", " + std::to_string(device.sm_count) + " SMs, L2 " + std::to_string(device.l2_bytes >> 20) +
      " MiB, copy bandwidth " + std::to_string(std::lround(device.copy_gbs)) + " GB/s, L2 read rate " +
      std::to_string(std::lround(device.l2_read_gbs)) + " GB/s; libsddmm " + std::to_string(info.library_version) +
      ", cuSPARSE " + std::to_string(info.cusparse_version) +
      (cublas ? ", cuBLAS " + std::to_string(info.cublas_version) : ""));
  const CaseContext ctx{options, device, stream.get(), cusparse.get(), cublas ? cublas->get() : nullptr, log};

  std::vector<Record> records;
  try {
    for (size_t i = 0; i < specs.size(); ++i) {
      const MatrixSpec& spec = specs[i];
      log("matrix " + std::to_string(i + 1) + "/" + std::to_string(specs.size()) + " " + spec.name + ": " +
          spec.description);
      HostMatrix m;
      try {
        m = prepare_matrix(spec.name, spec.make());
      } catch (const std::exception& e) {  // a bad file or an index beyond int32: skip this matrix
        log("  skipped: " + std::string(e.what()));
        record_unbuilt(records, spec.name, options, e.what());
        continue;
      }
      log("  " + std::to_string(m.rows) + " x " + std::to_string(m.cols) + ", nnz " + std::to_string(m.nnz) +
          ", longest row " + std::to_string(m.max_row_length) +
          (m.merged_repeats > 0 ? ", " + std::to_string(m.merged_repeats) + " repeated entries merged" : ""));
      for (Record& record : run_matrix(m, ctx)) records.push_back(std::move(record));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sddmm-bench: stopped: %s\n", e.what());
    finish(records, info, options);
    return 3;
  }
  finish(records, info, options);
  for (const Record& r : records) {
    if (r.status == "FAIL" || r.status == "ERROR" || r.gemm_status == "WRONG") return 1;
  }
  return 0;
}

}  // namespace
}  // namespace sddmm::bench

int main(int argc, char** argv) {
  using namespace sddmm::bench;
  Options options;
  std::vector<MatrixSpec> specs;
  try {
    if (!parse_options(argc, argv, options)) {
      std::cout << usage();
      return 0;
    }
    specs = select_matrices(options);
  } catch (const std::exception& e) {
    std::cerr << "sddmm-bench: " << e.what() << "\n" << usage();
    return 2;
  }
  if (options.list) {
    for (const MatrixSpec& spec : specs) std::cout << spec.name << "\t" << spec.description << "\n";
    return 0;
  }
  if (specs.empty()) {
    std::cerr << "sddmm-bench: no matrix selected (check --suite, --only, --mtx)\n";
    return 2;
  }
  try {
    return run(options, specs);
  } catch (const std::exception& e) {
    std::cerr << "sddmm-bench: " << e.what() << "\n";
    return 3;
  }
}
