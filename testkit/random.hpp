// Deterministic pseudo-random numbers for the generators, tests and benchmark: splitmix64 (Steele,
// Lea, Flood 2014), whose output is fixed by its definition on every platform and compiler. The
// std:: distributions are not used because their results differ between standard libraries.
#pragma once

#include <cstdint>

namespace sddmm::testkit {

// The splitmix64 finaliser: a bijective hash of 64 bits. Stateless, so entry p of a generator can
// take its numbers from mix64(seed, p) in any order, on any number of threads, with one result.
// constexpr, so device code compiled with --expt-relaxed-constexpr can call it (tests/huge).
constexpr uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// A seed for sub-stream `stream` of `seed` (stream = entry index, block index, round, ...).
inline uint64_t stream_seed(uint64_t seed, uint64_t stream) {
  return mix64(seed ^ mix64(stream + 0x9e3779b97f4a7c15ULL));
}

// The top 53 bits of x as a double in [0, 1).
inline double unit_double(uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53; }

// x mapped onto [0, bound) by a 128-bit multiply (Lemire). The bias is below bound / 2^64: at most
// 2^-30 for the 2^34-element universes of the largest benchmark matrices, far below what any test sees.
inline uint64_t below(uint64_t x, uint64_t bound) {
  __extension__ using uint128 = unsigned __int128;  // GCC/Clang/NVCC host; __extension__ keeps -Wpedantic quiet
  return static_cast<uint64_t>((static_cast<uint128>(x) * bound) >> 64);
}

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    state_ += 0x9e3779b97f4a7c15ULL;
    return mix64(state_);
  }
  double uniform() { return unit_double(next()); }                          // [0, 1)
  uint64_t below(uint64_t bound) { return testkit::below(next(), bound); }  // [0, bound)

 private:
  uint64_t state_;
};

}  // namespace sddmm::testkit
