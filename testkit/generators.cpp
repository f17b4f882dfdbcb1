#include "generators.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "random.hpp"
#include "sampling.hpp"

namespace sddmm::testkit {
namespace {

// Sub-streams of a generator's seed, kept apart so that, e.g., the values do not depend on how many
// rounds the position sampling took.
constexpr uint64_t kPositionStream = 1;
constexpr uint64_t kValueStream = 2;
constexpr uint64_t kRelabelStream = 3;
constexpr uint64_t kBetweenStream = 4;

void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}

// rows * cols as the size of the key universe, or an exception if it does not fit in 63 bits.
uint64_t universe_of(int64_t rows, int64_t cols, const char* who) {
  require(rows >= 0 && cols >= 0, std::string(who) + ": negative dimension");
  require(rows == 0 || cols <= INT64_MAX / rows, std::string(who) + ": rows * cols overflows int64");
  return static_cast<uint64_t>(rows) * static_cast<uint64_t>(cols);
}

// Value of entry p: uniform in [0.5, 1.5), a function of (seed, p) only.
void fill_values(CooMatrix& m, uint64_t seed) {
  const uint64_t value_seed = stream_seed(seed, kValueStream);
  m.val.resize(m.row.size());
#pragma omp parallel for schedule(static)
  for (size_t p = 0; p < m.val.size(); ++p) m.val[p] = 0.5 + unit_double(stream_seed(value_seed, p));
}

// Entries from sorted keys (key = row * key_cols + col), with values.
CooMatrix from_keys(int64_t rows, int64_t cols, const std::vector<uint64_t>& keys, uint64_t seed) {
  CooMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.row.resize(keys.size());
  m.col.resize(keys.size());
  const uint64_t key_cols = static_cast<uint64_t>(cols);
#pragma omp parallel for schedule(static)
  for (size_t p = 0; p < keys.size(); ++p) {
    m.row[p] = static_cast<int64_t>(keys[p] / key_cols);
    m.col[p] = static_cast<int64_t>(keys[p] % key_cols);
  }
  fill_values(m, seed);
  return m;
}

// Index ranges of `parts` near-equal pieces of [0, n): piece i is [start(i), start(i + 1)).
struct EvenSplit {
  int64_t n;
  int64_t parts;
  int64_t start(int64_t i) const { return i * (n / parts) + std::min(i, n % parts); }
  int64_t part_of(int64_t index) const {
    const int64_t small = n / parts;
    const int64_t large_end = (n % parts) * (small + 1);  // the first n % parts pieces are one longer
    return index < large_end ? index / (small + 1) : n % parts + (index - large_end) / small;
  }
};

// Keys of `count` distinct random positions inside the square [first, first + size)^2 of an n x n
// matrix, sorted.
std::vector<uint64_t> diagonal_block_keys(int64_t n, int64_t first, int64_t size, uint64_t count, uint64_t seed) {
  std::vector<uint64_t> keys = sample_distinct_keys(static_cast<uint64_t>(size * size), count, seed);
  for (uint64_t& key : keys) {
    const int64_t r = first + static_cast<int64_t>(key / static_cast<uint64_t>(size));
    const int64_t c = first + static_cast<int64_t>(key % static_cast<uint64_t>(size));
    key = static_cast<uint64_t>(r) * static_cast<uint64_t>(n) + static_cast<uint64_t>(c);
  }
  return keys;
}

uint64_t rounded_count(double p, uint64_t area) {
  return static_cast<uint64_t>(std::llround(p * static_cast<double>(area)));
}

}  // namespace

CooMatrix uniform_random(int64_t rows, int64_t cols, int64_t nnz, uint64_t seed, bool distinct) {
  const uint64_t universe = universe_of(rows, cols, "uniform_random");
  require(nnz >= 0, "uniform_random: negative nnz");
  require(nnz == 0 || universe > 0, "uniform_random: entries asked of an empty matrix");
  const uint64_t position_seed = stream_seed(seed, kPositionStream);
  if (distinct) {
    require(static_cast<uint64_t>(nnz) <= universe, "uniform_random: more distinct entries than positions");
    return from_keys(rows, cols, sample_distinct_keys(universe, static_cast<uint64_t>(nnz), position_seed), seed);
  }
  CooMatrix m;
  m.rows = rows;
  m.cols = cols;
  m.row.resize(static_cast<size_t>(nnz));
  m.col.resize(static_cast<size_t>(nnz));
  SplitMix64 rng(position_seed);
  for (size_t p = 0; p < m.row.size(); ++p) {
    m.row[p] = static_cast<int64_t>(rng.below(static_cast<uint64_t>(rows)));
    m.col[p] = static_cast<int64_t>(rng.below(static_cast<uint64_t>(cols)));
  }
  fill_values(m, seed);
  return m;
}

CooMatrix rmat(int scale, int64_t edge_factor, uint64_t seed, const RmatParameters& parameters) {
  require(scale >= 1 && scale <= 31, "rmat: scale outside [1, 31]");
  require(edge_factor >= 1 && edge_factor <= (int64_t{1} << 20), "rmat: edge_factor outside [1, 2^20]");
  const double a = parameters.a, b = parameters.b, c = parameters.c;
  require(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1.0, "rmat: a, b, c must be >= 0 with a + b + c <= 1");
  const int64_t n = int64_t{1} << scale;
  const uint64_t edges = static_cast<uint64_t>(edge_factor) << scale;
  // Quadrant thresholds on a 32-bit uniform: [0, a) top-left, [a, a+b) top-right, [a+b, a+b+c)
  // bottom-left, the rest bottom-right.
  const double kTwo32 = 4294967296.0;
  const uint64_t to_a = static_cast<uint64_t>(a * kTwo32);
  const uint64_t to_ab = static_cast<uint64_t>((a + b) * kTwo32);
  const uint64_t to_abc = static_cast<uint64_t>((a + b + c) * kTwo32);

  std::vector<int64_t> label(static_cast<size_t>(n));
  std::iota(label.begin(), label.end(), int64_t{0});
  if (parameters.relabel) {  // Fisher-Yates
    SplitMix64 rng(stream_seed(seed, kRelabelStream));
    for (int64_t i = n - 1; i > 0; --i) std::swap(label[i], label[rng.below(static_cast<uint64_t>(i + 1))]);
  }

  const uint64_t position_seed = stream_seed(seed, kPositionStream);
  std::vector<uint64_t> keys(edges);
#pragma omp parallel for schedule(static)
  for (uint64_t e = 0; e < edges; ++e) {
    SplitMix64 rng(stream_seed(position_seed, e));
    int64_t row = 0, col = 0;
    uint64_t bits = 0;
    for (int level = 0; level < scale; ++level) {
      if (level % 2 == 0) bits = rng.next();  // two 32-bit uniforms per draw
      const uint64_t u = level % 2 == 0 ? bits >> 32 : bits & 0xffffffffULL;
      const int row_bit = u >= to_ab;
      const int col_bit = (u >= to_a && u < to_ab) || u >= to_abc;
      row = (row << 1) | row_bit;
      col = (col << 1) | col_bit;
    }
    keys[e] = static_cast<uint64_t>(label[row]) * static_cast<uint64_t>(n) + static_cast<uint64_t>(label[col]);
  }
  sort_unique_keys(keys, static_cast<uint64_t>(n) * static_cast<uint64_t>(n) - 1);
  return from_keys(n, n, keys, seed);
}

CooMatrix banded(int64_t n, int64_t half_bandwidth, uint64_t seed) {
  require(n >= 0 && half_bandwidth >= 0, "banded: negative size or bandwidth");
  CooMatrix m;
  m.rows = n;
  m.cols = n;
  const size_t per_row = static_cast<size_t>(std::min(n, 2 * std::min(half_bandwidth, n) + 1));
  m.row.reserve(per_row * static_cast<size_t>(n));
  m.col.reserve(per_row * static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t last = std::min(n - 1, i + half_bandwidth);
    for (int64_t j = std::max<int64_t>(0, i - half_bandwidth); j <= last; ++j) {
      m.row.push_back(i);
      m.col.push_back(j);
    }
  }
  fill_values(m, seed);
  return m;
}

CooMatrix block_diagonal(int64_t n, int64_t block_size, double block_density, uint64_t seed) {
  universe_of(n, n, "block_diagonal");
  require(block_size >= 1, "block_diagonal: block_size must be positive");
  require(block_density >= 0.0 && block_density <= 1.0, "block_diagonal: block_density outside [0, 1]");
  std::vector<uint64_t> keys;
  // Blocks go down the diagonal, so appending each block's sorted keys keeps the whole list sorted.
  for (int64_t first = 0, block = 0; first < n; first += block_size, ++block) {
    const int64_t size = std::min(block_size, n - first);
    const uint64_t area = static_cast<uint64_t>(size * size);
    const uint64_t block_seed = stream_seed(stream_seed(seed, kPositionStream), static_cast<uint64_t>(block));
    const std::vector<uint64_t> block_keys =
        diagonal_block_keys(n, first, size, std::min(area, rounded_count(block_density, area)), block_seed);
    keys.insert(keys.end(), block_keys.begin(), block_keys.end());
  }
  return from_keys(n, n, keys, seed);
}

CooMatrix stochastic_block_model(int64_t n, int64_t clusters, double p_in, double p_out, uint64_t seed) {
  const uint64_t universe = universe_of(n, n, "stochastic_block_model");
  require(clusters >= 1 && clusters <= std::max<int64_t>(n, 1), "stochastic_block_model: clusters outside [1, n]");
  require(p_in >= 0.0 && p_in <= 1.0, "stochastic_block_model: p_in outside [0, 1]");
  require(p_out >= 0.0 && p_out <= 0.5, "stochastic_block_model: p_out outside [0, 0.5]");
  const EvenSplit split{n, clusters};
  const uint64_t position_seed = stream_seed(seed, kPositionStream);
  std::vector<uint64_t> keys;
  uint64_t inside_area = 0;
  for (int64_t cluster = 0; cluster < clusters; ++cluster) {
    const int64_t first = split.start(cluster);
    const int64_t size = split.start(cluster + 1) - first;
    const uint64_t area = static_cast<uint64_t>(size * size);
    inside_area += area;
    const std::vector<uint64_t> block_keys =
        diagonal_block_keys(n, first, size, std::min(area, rounded_count(p_in, area)),
                            stream_seed(position_seed, static_cast<uint64_t>(cluster)));
    keys.insert(keys.end(), block_keys.begin(), block_keys.end());
  }
  const uint64_t between_count = rounded_count(p_out, universe - inside_area);
  const uint64_t key_n = static_cast<uint64_t>(n);
  const std::vector<uint64_t> between_keys =
      sample_distinct_keys_if(universe, between_count, stream_seed(seed, kBetweenStream), [&](uint64_t key) {
        return split.part_of(static_cast<int64_t>(key / key_n)) != split.part_of(static_cast<int64_t>(key % key_n));
      });
  keys.insert(keys.end(), between_keys.begin(), between_keys.end());
  if (!keys.empty()) sort_keys(keys, universe - 1);
  return from_keys(n, n, keys, seed);
}

}  // namespace sddmm::testkit
