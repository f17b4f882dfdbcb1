// sddmm-plan-timer: plan creation (sddmm_create_coo) of several builds of libsddmm, timed in one
// process and in turn, creation by creation. sddmm-bench times a plan as the median of a few
// creations in one process, and its processes differ by 10-45 % (bench/RESULTS.md's log, e93-e97):
// more than the changes to creation being measured (10-40 µs of 0.3 ms). Here every library is
// dlopen'ed into the same process (each with its own static CUDA runtime and creation pool, over
// the one primary context) and the creations alternate A, B, C, A, B, C, ... on the same device
// arrays, the order turned by one place each round, so that what drifts in the process (the
// host's clocks, the driver's state, the allocations held) falls on every library alike. The first
// round is a warm-up (lazy module loading) and not counted.
//
//   sddmm-plan-timer --lib base=/path/a/libsddmm.so --lib tree=/path/b/libsddmm.so
//       [--env tree:SDDMM_CREATION_POOL_BYTES=536870912] [--suite full] [--only TEXT,...]
//       [--mtx FILE] [--rounds 20] [--creations 5] [--device 0]
//
// --env NAME:VAR=VALUE sets VAR around each creation by library NAME (restored after), so one
// build can stand for several settings of its environment variables: give the same file under two
// paths (dlopen loads a file once), one with --env. Output: per matrix and library, the median
// and the quartiles of its creations (ms), and against the first library the median over rounds
// of the difference of the round's medians (µs; negative: faster than the first), with its
// quartiles. Progress on stderr. Exit status: 0 done, 1 a library failed, 2 bad command line.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "host_matrix.hpp"
#include "options.hpp"
#include "sddmm.h"
#include "suite.hpp"

namespace sddmm::bench {
namespace {

using CreateCoo = decltype(&sddmm_create_coo);
using Destroy = decltype(&sddmm_destroy);
using LastError = decltype(&sddmm_last_error);

struct Setting {
  std::string var, value;
};

// One build of the library, loaded on its own (RTLD_LOCAL: its symbols do not answer for another's).
struct Library {
  std::string name, path;
  std::vector<Setting> env;
  void* handle = nullptr;
  CreateCoo create = nullptr;
  Destroy destroy = nullptr;
  LastError last_error = nullptr;
};

template <typename F>
F symbol(const Library& lib, const char* name) {
  void* f = dlsym(lib.handle, name);
  if (f == nullptr) throw std::runtime_error(lib.path + ": no symbol " + name);
  return reinterpret_cast<F>(f);
}

void load(Library& lib) {
  lib.handle = dlopen(lib.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib.handle == nullptr) throw std::runtime_error("dlopen " + lib.path + ": " + dlerror());
  lib.create = symbol<CreateCoo>(lib, "sddmm_create_coo");
  lib.destroy = symbol<Destroy>(lib, "sddmm_destroy");
  lib.last_error = symbol<LastError>(lib, "sddmm_last_error");
}

void cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

// Device copies of one matrix's COO arrays (int32 indices, float32 values), freed with it.
struct DeviceCoo {
  void *row = nullptr, *col = nullptr, *val = nullptr;
  DeviceCoo(const HostMatrix& m, cudaStream_t stream) {
    upload(row, m.row.data(), m.row.size() * sizeof(int32_t), stream);
    upload(col, m.col.data(), m.col.size() * sizeof(int32_t), stream);
    upload(val, m.val.data(), m.val.size() * sizeof(float), stream);
    cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }
  ~DeviceCoo() {
    cudaFree(row);
    cudaFree(col);
    cudaFree(val);
  }
  DeviceCoo(const DeviceCoo&) = delete;
  DeviceCoo& operator=(const DeviceCoo&) = delete;

 private:
  static void upload(void*& to, const void* from, size_t bytes, cudaStream_t stream) {
    cuda(cudaMalloc(&to, bytes > 0 ? bytes : 1), "cudaMalloc");
    cuda(cudaMemcpyAsync(to, from, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
  }
};

// Sets a library's variables for one creation and puts back what was there.
class ScopedSettings {
 public:
  explicit ScopedSettings(const std::vector<Setting>& settings) {
    for (const Setting& s : settings) {
      const char* old = std::getenv(s.var.c_str());
      saved_.push_back({s.var, old != nullptr ? std::optional<std::string>(old) : std::nullopt});
      setenv(s.var.c_str(), s.value.c_str(), 1);
    }
  }
  ~ScopedSettings() {
    for (const Saved& s : saved_) {
      if (s.value) {
        setenv(s.var.c_str(), s.value->c_str(), 1);
      } else {
        unsetenv(s.var.c_str());
      }
    }
  }
  ScopedSettings(const ScopedSettings&) = delete;
  ScopedSettings& operator=(const ScopedSettings&) = delete;

 private:
  struct Saved {
    std::string var;
    std::optional<std::string> value;
  };
  std::vector<Saved> saved_;
};

// One creation by `lib`, destroyed after; the host's clock around sddmm_create_coo alone, which
// synchronises (as sddmm-bench times it).
double time_creation(const Library& lib, const HostMatrix& m, const DeviceCoo& a, int device, cudaStream_t stream) {
  const ScopedSettings settings(lib.env);
  sddmm_matrix_t handle = nullptr;
  const auto start = std::chrono::steady_clock::now();
  const sddmm_status_t status = lib.create(&handle, m.rows, m.cols, m.nnz, a.row, a.col, SDDMM_INDEX_INT32, a.val,
                                           SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CUDA, device, 0, stream);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (status != SDDMM_STATUS_SUCCESS) {
    throw std::runtime_error(lib.name + ": sddmm_create_coo on " + m.name + ": " + lib.last_error());
  }
  if (lib.destroy(handle) != SDDMM_STATUS_SUCCESS) throw std::runtime_error(lib.name + ": sddmm_destroy");
  return ms;
}

// The q-quantile (0 <= q <= 1) of `v` by the nearest rank below; `v` is taken by value and sorted.
double quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))];
}

struct Args {
  Options matrices;  // suite, only, mtx_files, device
  std::vector<Library> libs;
  int rounds = 20;
  int creations = 5;
};

int parse_count(const std::string& text, const char* option, int min = 1) {
  size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < min || value > 100000) {
    throw std::invalid_argument(std::string(option) + " wants an integer in [" + std::to_string(min) +
                                ", 100000], got '" + text + "'");
  }
  return value;
}

Args parse(int argc, char** argv) {
  Args a;
  a.matrices.suite = "full";
  std::vector<std::pair<std::string, Setting>> env;
  for (int i = 1; i < argc; ++i) {
    const std::string opt = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(opt + " wants a value");
    const std::string value = argv[++i];
    if (opt == "--lib") {
      const size_t eq = value.find('=');
      if (eq == std::string::npos || eq == 0) throw std::invalid_argument("--lib wants NAME=PATH, got '" + value + "'");
      Library lib;
      lib.name = value.substr(0, eq);
      lib.path = value.substr(eq + 1);
      a.libs.push_back(lib);
    } else if (opt == "--env") {
      const size_t colon = value.find(':'), eq = value.find('=', colon == std::string::npos ? 0 : colon);
      if (colon == std::string::npos || eq == std::string::npos || colon == 0 || eq == colon + 1) {
        throw std::invalid_argument("--env wants NAME:VAR=VALUE, got '" + value + "'");
      }
      env.push_back({value.substr(0, colon), {value.substr(colon + 1, eq - colon - 1), value.substr(eq + 1)}});
    } else if (opt == "--suite") {
      a.matrices.suite = value;
    } else if (opt == "--only") {
      a.matrices.only.push_back(value);
    } else if (opt == "--mtx") {
      a.matrices.mtx_files.push_back(value);
    } else if (opt == "--rounds") {
      a.rounds = parse_count(value, "--rounds") + 1;  // + the warm-up
    } else if (opt == "--creations") {
      a.creations = parse_count(value, "--creations");
    } else if (opt == "--device") {
      a.matrices.device = parse_count(value, "--device", 0);
    } else {
      throw std::invalid_argument("unknown option " + opt);
    }
  }
  if (a.libs.empty()) throw std::invalid_argument("at least one --lib NAME=PATH");
  for (const auto& [name, setting] : env) {
    auto lib = std::find_if(a.libs.begin(), a.libs.end(), [&](const Library& l) { return l.name == name; });
    if (lib == a.libs.end()) throw std::invalid_argument("--env names no --lib: '" + name + "'");
    lib->env.push_back(setting);
  }
  // --only takes a comma-separated list in sddmm-bench: the same here.
  std::vector<std::string> only;
  for (const std::string& list : a.matrices.only) {
    size_t start = 0;
    while (start <= list.size()) {
      const size_t end = std::min(list.find(',', start), list.size());
      if (end > start) only.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  a.matrices.only = only;
  return a;
}

void run(Args& a) {
  for (Library& lib : a.libs) load(lib);
  cuda(cudaSetDevice(a.matrices.device), "cudaSetDevice");
  cudaStream_t stream = nullptr;
  cuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  const size_t n = a.libs.size();
  std::printf("%-28s %12s %-12s %10s %10s %10s %12s %10s %10s\n", "matrix", "nnz", "library", "median ms", "q1 ms",
              "q3 ms", "d median us", "d q1 us", "d q3 us");
  const std::vector<MatrixSpec> specs = select_matrices(a.matrices);
  for (size_t s = 0; s < specs.size(); ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    std::fprintf(stderr, "[%zu/%zu] %s: generating\n", s + 1, specs.size(), specs[s].name.c_str());
    const HostMatrix m = prepare_matrix(specs[s].name, specs[s].make());
    const DeviceCoo coo(m, stream);
    // ms[lib][round][creation]
    std::vector<std::vector<std::vector<double>>> ms(n, std::vector<std::vector<double>>(a.rounds));
    for (int r = 0; r < a.rounds; ++r) {
      for (int c = 0; c < a.creations; ++c) {
        for (size_t j = 0; j < n; ++j) {
          const size_t l = (j + static_cast<size_t>(r)) % n;  // turned by one place each round
          ms[l][r].push_back(time_creation(a.libs[l], m, coo, a.matrices.device, stream));
        }
      }
    }
    std::vector<double> reference_rounds;
    for (size_t l = 0; l < n; ++l) {
      std::vector<double> all, round_medians;
      for (int r = 1; r < a.rounds; ++r) {
        all.insert(all.end(), ms[l][r].begin(), ms[l][r].end());
        round_medians.push_back(quantile(ms[l][r], 0.5));
      }
      if (l == 0) reference_rounds = round_medians;
      std::printf("%-28s %12lld %-12s %10.4f %10.4f %10.4f", m.name.c_str(), static_cast<long long>(m.nnz),
                  a.libs[l].name.c_str(), quantile(all, 0.5), quantile(all, 0.25), quantile(all, 0.75));
      if (l == 0) {
        std::printf("\n");
        continue;
      }
      std::vector<double> d;
      for (size_t r = 0; r < round_medians.size(); ++r) d.push_back(1000.0 * (round_medians[r] - reference_rounds[r]));
      std::printf(" %12.1f %10.1f %10.1f\n", quantile(d, 0.5), quantile(d, 0.25), quantile(d, 0.75));
    }
    std::fflush(stdout);
    std::fprintf(stderr, "[%zu/%zu] %s: %d rounds x %d creations x %zu libraries, %.1f s\n", s + 1, specs.size(),
                 m.name.c_str(), a.rounds, a.creations, n,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  cudaStreamDestroy(stream);
}

}  // namespace
}  // namespace sddmm::bench

int main(int argc, char** argv) {
  sddmm::bench::Args args;
  try {
    args = sddmm::bench::parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sddmm-plan-timer: %s\n", e.what());
    return 2;
  }
  try {
    sddmm::bench::run(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sddmm-plan-timer: %s\n", e.what());
    return 1;
  }
  return 0;
}
