// Seeded generators of sparse test and benchmark matrices.
//
// Every generator is a pure function of its arguments: the same seed gives the same matrix on every
// platform (splitmix64 streams, no std:: distributions, no dependence on thread count). Unless said
// otherwise a result has distinct entries sorted by (row, col) - CSR order - and values drawn
// uniformly from [0.5, 1.5): positive and away from zero, so relative error checks of sums of
// products are well conditioned. Invalid arguments throw std::invalid_argument.
#pragma once

#include <cstdint>

#include "coo.hpp"

namespace sddmm::testkit {

// `nnz` entries at uniformly random positions of a rows x cols matrix.
// distinct = true: `nnz` different positions (every nnz-subset equally likely), sorted; needs
//   nnz <= rows * cols.
// distinct = false: `nnz` independent draws in draw order - unsorted, and positions may repeat -
//   for exercising a consumer's handling of unsorted and duplicate entries.
CooMatrix uniform_random(int64_t rows, int64_t cols, int64_t nnz, uint64_t seed, bool distinct = true);

// R-MAT / Kronecker power-law graph (Chakrabarti, Zhan, Faloutsos 2004), Graph500 parameters by
// default: 2^scale vertices, edge_factor * 2^scale edges drawn by recursive quadrant choice with
// probabilities a, b, c and d = 1 - a - b - c, then repeated edges merged, so nnz is somewhat below
// edge_factor * 2^scale (scale 20, edge factor 16: about 16.1M of 16.8M). Self-loops are kept.
// relabel = true applies one random permutation to rows and columns alike, as Graph500 does, so that
// high-degree vertices are scattered instead of gathered at low indices.
struct RmatParameters {
  double a = 0.57;
  double b = 0.19;
  double c = 0.19;
  bool relabel = true;
};
CooMatrix rmat(int scale, int64_t edge_factor, uint64_t seed, const RmatParameters& parameters = {});

// n x n matrix with every entry (i, j), |i - j| <= half_bandwidth: 2 * half_bandwidth + 1 entries
// per row away from the corners.
CooMatrix banded(int64_t n, int64_t half_bandwidth, uint64_t seed);

// n x n matrix of square blocks of block_size on the diagonal (the last one smaller when block_size
// does not divide n), each holding round(block_density * area) entries at distinct random positions;
// block_density = 1 fills the blocks.
CooMatrix block_diagonal(int64_t n, int64_t block_size, double block_density, uint64_t seed);

// Stochastic block model: n x n adjacency of `clusters` communities that are contiguous index ranges
// of near-equal size (sizes differ by at most one). Each cluster's diagonal block holds
// round(p_in * area) entries and the area outside all diagonal blocks round(p_out * area), each at
// distinct uniformly random positions: a fixed count per region rather than a Bernoulli trial per
// position, so nnz is known in advance. Needs p_out <= 0.5.
CooMatrix stochastic_block_model(int64_t n, int64_t clusters, double p_in, double p_out, uint64_t seed);

}  // namespace sddmm::testkit
