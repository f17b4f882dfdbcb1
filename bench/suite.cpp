#include "suite.hpp"

#include <cstdint>
#include <filesystem>
#include <utility>

#include "generators.hpp"
#include "matrix_market.hpp"

namespace sddmm::bench {
namespace {

namespace tk = testkit;

// One seed for every generated matrix: the shapes differ, so the matrices do, and a matrix stays the
// same when the suite's order changes.
constexpr uint64_t kSeed = 20261120;

MatrixSpec uniform(const std::string& name, int64_t rows, int64_t cols, int64_t nnz, const std::string& why) {
  return {name, why, [=] { return tk::uniform_random(rows, cols, nnz, kSeed); }};
}

// The seed log's shapes (shared/seeds/002_*): uniform random, distinct entries.
std::vector<MatrixSpec> seed_log_shapes(bool full) {
  std::vector<MatrixSpec> specs;
  if (full) specs.push_back(uniform("uniform-4000-88k", 4000, 4000, 88000, "4000^2, 99.45% sparse (seed log)"));
  specs.push_back(uniform("uniform-8000-640k", 8000, 8000, 640000, "8000^2, 99% sparse (seed log)"));
  if (full) {
    specs.push_back(uniform("uniform-8000-1.28M", 8000, 8000, 1280000, "8000^2, 98% sparse (seed log)"));
    specs.push_back(uniform("uniform-8000-1.92M", 8000, 8000, 1920000, "8000^2, 97% sparse (seed log)"));
    specs.push_back(uniform("uniform-8000-2.56M", 8000, 8000, 2560000, "8000^2, 96% sparse (seed log)"));
    specs.push_back(uniform("uniform-8000-3.2M", 8000, 8000, 3200000, "8000^2, 95% sparse (issue 4: 90-95%)"));
  }
  specs.push_back(uniform("uniform-8000-6.4M", 8000, 8000, 6400000, "8000^2, 90% sparse (seed log)"));
  specs.push_back(uniform("uniform-37000-368k", 37000, 37000, 368000, "37000^2, 10 per row (seed log)"));
  if (full) {
    specs.push_back(uniform("uniform-36000-4M", 36000, 36000, 4000000, "36000^2, 111 per row (seed log)"));
    specs.push_back(uniform("uniform-106000-3M", 106000, 106000, 3000000, "106000^2, 28 per row (seed log)"));
  }
  specs.push_back(uniform("uniform-685000-8M", 685000, 685000, 8000000,
                          "685000^2, 12 per row: dense operands far beyond L2, the bandwidth case (seed log)"));
  if (full) {
    specs.push_back(uniform("uniform-916000-5M", 916000, 916000, 5000000, "916000^2, 5.5 per row (seed log)"));
    specs.push_back(uniform("uniform-300000x103000-69M", 300000, 103000, 69000000,
                            "300000 x 103000, 230 per row: the largest (seed log)"));
  }
  return specs;
}

// Structured matrices: power law (load balance), band and blocks (locality), clusters.
std::vector<MatrixSpec> structured(bool full) {
  const int rmat_scale = full ? 20 : 18;
  const int64_t banded_n = full ? 1000000 : 100000;
  const int64_t block_n = full ? 262144 : 65536;
  const int64_t sbm_n = full ? 200000 : 20000;
  const int64_t sbm_clusters = sbm_n / 1000;
  // 50 entries a row inside the 1000-row clusters, 5 a row outside them.
  const double sbm_p_out = 5.0 / static_cast<double>(sbm_n - 1000);
  return {
      {"rmat-s" + std::to_string(rmat_scale),
       "R-MAT scale " + std::to_string(rmat_scale) + ", edge factor 16, Graph500 a=.57 b=c=.19, relabelled: power law",
       [=] { return tk::rmat(rmat_scale, 16, kSeed); }},
      {"banded-" + std::to_string(banded_n) + "-w5", "n=" + std::to_string(banded_n) + ", |i-j| <= 5: 11 per row",
       [=] { return tk::banded(banded_n, 5, kSeed); }},
      {"blockdiag-" + std::to_string(block_n) + "-b64",
       "n=" + std::to_string(block_n) + ", dense 64x64 diagonal blocks",
       [=] { return tk::block_diagonal(block_n, 64, 1.0, kSeed); }},
      {"sbm-" + std::to_string(sbm_n) + "-c" + std::to_string(sbm_clusters),
       "stochastic block model, " + std::to_string(sbm_clusters) + " clusters of 1000, 50 in + 5 out per row",
       [=] { return tk::stochastic_block_model(sbm_n, sbm_clusters, 0.05, sbm_p_out, kSeed); }},
  };
}

// Block-diagonal 262144 with 64 x 64 blocks 100 % down to 6.25 % full at random: the fill of the
// dense units a tensor-core kernel takes, swept for its threshold (tuning.hpp, kSpmmTensorMinFill).
std::vector<MatrixSpec> unit_fills() {
  std::vector<MatrixSpec> specs;
  const std::pair<double, const char*> fills[] = {
      {1.0, "100"}, {0.5, "50"}, {0.25, "25"}, {0.125, "12.5"}, {0.0625, "6.25"}};
  for (const auto& fill : fills) {
    const double density = fill.first;
    const std::string percent = fill.second;
    specs.push_back({"blockdiag-262144-b64-fill" + percent, "n=262144, 64x64 diagonal blocks " + percent + " % full",
                     [=] { return tk::block_diagonal(262144, 64, density, kSeed); }});
  }
  return specs;
}

bool selected(const std::string& name, const std::vector<std::string>& only) {
  if (only.empty()) return true;
  for (const std::string& text : only) {
    if (name.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

std::vector<MatrixSpec> select_matrices(const Options& options) {
  std::vector<MatrixSpec> all;
  if (options.suite == "fill") {
    for (MatrixSpec& spec : unit_fills()) all.push_back(std::move(spec));
  } else if (options.suite != "none") {
    const bool full = options.suite == "full";
    for (MatrixSpec& spec : seed_log_shapes(full)) all.push_back(std::move(spec));
    for (MatrixSpec& spec : structured(full)) all.push_back(std::move(spec));
  }
  for (const std::string& path : options.mtx_files) {
    all.push_back({std::filesystem::path(path).stem().string(), "Matrix Market file " + path,
                   [path] { return tk::read_matrix_market(path); }});
  }
  std::vector<MatrixSpec> kept;
  for (MatrixSpec& spec : all) {
    if (selected(spec.name, options.only)) kept.push_back(std::move(spec));
  }
  return kept;
}

}  // namespace sddmm::bench
