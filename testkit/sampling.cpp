#include "sampling.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_num_threads() { return 1; }
static int omp_get_thread_num() { return 0; }
#endif

#include "random.hpp"

namespace sddmm::testkit {
namespace {

// At most 12 bits a radix digit: 4096 counters per thread stay in L1, and the scatter writes to few
// enough places at once for the TLB.
constexpr int kMaxDigitBits = 12;
// Draws are made in chunks of this many, chunk c from sub-stream c, so that the keys do not depend
// on the number of threads.
constexpr uint64_t kDrawChunk = uint64_t{1} << 16;
// Below this size std::sort beats the radix passes' fixed cost of clearing and scanning histograms.
constexpr size_t kRadixMinSize = size_t{1} << 16;
// A guard against an accept set smaller than the request, which would otherwise loop forever.
constexpr int kMaxStalledRounds = 1000;

int bit_width(uint64_t x) {
  int bits = 0;
  while (x != 0) {
    ++bits;
    x >>= 1;
  }
  return bits;
}

// Knuth's Algorithm S (TAOCP 3.4.2): visit every key once, taking it with probability
// (still needed) / (still left), which yields exactly `count` keys, sorted, each subset equally likely.
std::vector<uint64_t> select_sequentially(uint64_t universe, uint64_t count, uint64_t seed) {
  std::vector<uint64_t> keys;
  keys.reserve(count);
  SplitMix64 rng(seed);
  for (uint64_t key = 0; key < universe && keys.size() < count; ++key) {
    const uint64_t needed = count - keys.size();
    const uint64_t left = universe - key;
    if (needed == left || rng.below(left) < needed) keys.push_back(key);
  }
  return keys;
}

// `n` uniform keys of [0, universe), less those accept rejects.
void draw_keys(std::vector<uint64_t>& keys, uint64_t n, uint64_t universe, uint64_t seed,
               const std::function<bool(uint64_t)>* accept) {
  constexpr uint64_t kRejected = UINT64_MAX;  // never a key: universe <= 2^63
  keys.resize(n);
  const int64_t chunks = static_cast<int64_t>((n + kDrawChunk - 1) / kDrawChunk);
#pragma omp parallel for schedule(static)
  for (int64_t c = 0; c < chunks; ++c) {
    SplitMix64 rng(stream_seed(seed, static_cast<uint64_t>(c)));
    const uint64_t end = std::min(n, static_cast<uint64_t>(c + 1) * kDrawChunk);
    for (uint64_t i = static_cast<uint64_t>(c) * kDrawChunk; i < end; ++i) {
      const uint64_t key = rng.below(universe);
      keys[i] = accept == nullptr || (*accept)(key) ? key : kRejected;
    }
  }
  if (accept != nullptr) keys.erase(std::remove(keys.begin(), keys.end(), kRejected), keys.end());
}

// Draw the shortfall, deduplicate, merge, repeat. Each round uses its own sub-stream of the seed, so
// the result depends only on the arguments.
std::vector<uint64_t> draw_until_distinct(uint64_t universe, uint64_t count, uint64_t seed,
                                          const std::function<bool(uint64_t)>* accept) {
  std::vector<uint64_t> keys;
  std::vector<uint64_t> batch;
  std::vector<uint64_t> merged;
  int stalled_rounds = 0;
  for (uint64_t round = 0; keys.size() < count; ++round) {
    if (stalled_rounds > kMaxStalledRounds) {
      throw std::runtime_error("sample_distinct_keys_if: no new key in " + std::to_string(kMaxStalledRounds) +
                               " rounds; too few keys are accepted for " + std::to_string(count));
    }
    draw_keys(batch, count - keys.size(), universe, stream_seed(seed, round), accept);
    sort_unique_keys(batch, universe - 1);
    if (keys.empty()) {
      stalled_rounds = batch.empty() ? stalled_rounds + 1 : 0;
      keys.swap(batch);
      continue;
    }
    merged.clear();
    merged.reserve(keys.size() + batch.size());
    std::merge(keys.begin(), keys.end(), batch.begin(), batch.end(), std::back_inserter(merged));
    merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
    stalled_rounds = merged.size() == keys.size() ? stalled_rounds + 1 : 0;
    keys.swap(merged);
  }
  return keys;
}

void check_count(uint64_t universe, uint64_t count) {
  if (count > universe) {
    throw std::invalid_argument("sample_distinct_keys: " + std::to_string(count) +
                                " distinct keys asked of a universe of " + std::to_string(universe));
  }
}

}  // namespace

void sort_keys(std::vector<uint64_t>& keys, uint64_t max_key) {
  if (keys.size() < kRadixMinSize) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  const int bits = bit_width(max_key);
  const int passes = (bits + kMaxDigitBits - 1) / kMaxDigitBits;
  if (passes == 0) return;  // every key is 0
  const int digit_bits = (bits + passes - 1) / passes;
  const size_t bins = size_t{1} << digit_bits;
  const uint64_t mask = bins - 1;
  const int64_t n = static_cast<int64_t>(keys.size());
  std::vector<uint64_t> buffer(keys.size());
  std::vector<size_t> offsets;  // (threads, bins): where thread t writes its next key of each digit
  for (int pass = 0; pass < passes; ++pass) {
    const int shift = pass * digit_bits;
#pragma omp parallel
    {
      const int threads = omp_get_num_threads();
      const int t = omp_get_thread_num();
      const int64_t begin = n * t / threads;
      const int64_t end = n * (t + 1) / threads;
#pragma omp single
      offsets.assign(static_cast<size_t>(threads) * bins, 0);  // implicit barrier after single
      size_t* mine = offsets.data() + static_cast<size_t>(t) * bins;
      for (int64_t i = begin; i < end; ++i) ++mine[(keys[i] >> shift) & mask];
#pragma omp barrier
#pragma omp single
      {  // exclusive prefix sum in (digit, thread) order keeps the sort stable
        size_t start = 0;
        for (size_t digit = 0; digit < bins; ++digit) {
          for (int u = 0; u < threads; ++u) {
            size_t& slot = offsets[static_cast<size_t>(u) * bins + digit];
            const size_t count = slot;
            slot = start;
            start += count;
          }
        }
      }
      for (int64_t i = begin; i < end; ++i) buffer[mine[(keys[i] >> shift) & mask]++] = keys[i];
    }
    keys.swap(buffer);
  }
}

void sort_unique_keys(std::vector<uint64_t>& keys, uint64_t max_key) {
  sort_keys(keys, max_key);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

std::vector<uint64_t> sample_distinct_keys(uint64_t universe, uint64_t count, uint64_t seed) {
  check_count(universe, count);
  // At density >= 1/4 a redraw round would lose a quarter or more of its draws to repeats.
  if (count >= universe / 4) return select_sequentially(universe, count, seed);
  return draw_until_distinct(universe, count, seed, nullptr);
}

std::vector<uint64_t> sample_distinct_keys_if(uint64_t universe, uint64_t count, uint64_t seed,
                                              const std::function<bool(uint64_t)>& accept) {
  check_count(universe, count);
  return draw_until_distinct(universe, count, seed, &accept);
}

}  // namespace sddmm::testkit
