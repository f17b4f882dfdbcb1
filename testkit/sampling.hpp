// Building blocks of the generators: sorting packed (row, col) keys and drawing distinct positions.
// A key is row * cols + col, so ascending keys are entries in row-major order.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

namespace sddmm::testkit {

// Sorts keys ascending; every key must be <= max_key. LSD radix sort over only the digits max_key
// needs (three 11-bit passes for the 3 * 10^10 positions of a 300000 x 103000 matrix), because
// std::sort of the 69M-entry benchmark matrix takes several seconds.
void sort_keys(std::vector<uint64_t>& keys, uint64_t max_key);

// Sorts and removes repeated keys.
void sort_unique_keys(std::vector<uint64_t>& keys, uint64_t max_key);

// `count` distinct keys drawn uniformly from [0, universe) (every count-subset equally likely),
// sorted ascending. Sparse requests draw, sort and deduplicate, then draw again for the shortfall;
// requests of a quarter of the universe or more walk it once (Knuth's selection sampling), so the
// cost stays O(count log count) at low density and O(universe) <= O(4 count) at high density.
// Throws std::invalid_argument if count > universe.
std::vector<uint64_t> sample_distinct_keys(uint64_t universe, uint64_t count, uint64_t seed);

// As sample_distinct_keys, over only the keys for which accept(key) is true. The caller promises
// that at least `count` keys are accepted and that accepted keys are not rare (each round draws
// only the shortfall, so a sparse accept set makes many rounds).
std::vector<uint64_t> sample_distinct_keys_if(uint64_t universe, uint64_t count, uint64_t seed,
                                              const std::function<bool(uint64_t)>& accept);

}  // namespace sddmm::testkit
