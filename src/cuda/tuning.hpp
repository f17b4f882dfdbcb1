// Tuning values of the CUDA backend, each with the measurement that chose it (bench/RESULTS.md has
// the full record). Host-side constants: kernels receive them through their arguments.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sddmm::cuda {

// SpMM: rows (transposed: columns) with more entries than the larger of this and
// kSpmmHeavyRowMeanFactor x the mean row length are computed by a whole block per column tile
// instead of one lane group, so that one long row no longer sets the kernel's length (a lane group
// sums its row serially, kEntriesInFlight entries per round trip to memory). The mean term keeps
// matrices whose rows are all long (uniform 8000^2: 160-800 entries) on the light path, which
// slices them over a warp when they are few. Overridable with SDDMM_SPMM_HEAVY_ROW_ENTRIES and
// SDDMM_SPMM_HEAVY_ROW_FACTOR (0: the fixed threshold alone). Measured on the H200, one-launch
// kernel (2026-11-21, 12 matrices x N = 32/128/256, geometric mean of the speedup over cuSPARSE):
// 128 and 2x the mean 0.97 / 0.99 / 0.92, 64 alone 0.91 / 1.00 / 0.95, 64 and 2x 1.07 / 1.05 /
// 0.98, 32 and 2x 1.13 / 1.12 / 1.06 (cora N = 32: 0.0156 / 0.0107 / 0.0097 ms at 128 / 64 / 32;
// uniform 8000^2 640k N = 32 with 64 alone 0.044 ms, with the mean term 0.017). The fixed
// threshold alone was 256 before (R-MAT N = 32/128/256 6.63/9.34/20.39 -> 0.94/2.84/4.26 ms against
// no split, 351e2f2). 16 and 64 (5996ada, one round, 8 matrices x N = 32/128/256, geomean time
// against 32): 16 0.961 (cora N = 256 0.0131 -> 0.0098 ms, p2p-Gnutella31 N = 32 0.0195 -> 0.0167,
// but ca-CondMat N = 32 0.0147 -> 0.0178), 64 1.151; mixed on the graphs: the next value.
constexpr int64_t kSpmmHeavyRowEntries = 32;
constexpr int64_t kSpmmHeavyRowMeanFactor = 2;

// ... and the lower floor a dimension takes instead when no more of its indices than one wave of
// 256-thread blocks (cuda/preprocess/classify.cu) lie above it: those heavy blocks then run beside
// the light rows, and the longest light row, which a small graph's kernel waits for, is half as
// long. In the sweep above the graphs that gained from 16 have few rows above it (cora 47,
// citeseer 23, p2p-Gnutella31 223; 1056 blocks on the H200), those that lost many (pubmed 1185,
// ca-CondMat 2577). Side by side (ea1e8c0 against this, two rounds, 10 matrices x N = 32/128/256,
// geomean time 0.961): cora N = 32 / 256 0.0103 -> 0.0082, 0.0135 -> 0.0100 ms, citeseer N = 256
// 0.0136 -> 0.0114, p2p-Gnutella31 N = 32 0.0200 -> 0.0172 (1.00x cuSPARSE), uniform-916000-5M
// N = 256 1.524 -> 1.510; pubmed, ca-CondMat, R-MAT and the other uniform matrices keep their
// threshold. Plan creation +0.01-0.03 ms where taken (a second partition). Overridable with
// SDDMM_SPMM_HEAVY_ROW_ENTRIES_FEW (at most the floor above).
constexpr int64_t kSpmmHeavyRowEntriesFew = 16;

// SDDMM, CUDA-core kernel (the line kernel at K <= 32: one wave, kSddmmLineInterleave below): its
// grid is up to kSddmmGridMaxWaves times the blocks the device runs at once (cuda/occupancy.cuh),
// each warp taking an equal contiguous share of the entries, as long as every warp still gets
// kSddmmWaveMinProducts products (entries x K: its work, whatever the type) per wave. With more
// than one wave the first blocks cover the first part of the matrix, the next ones the next: the
// rows in flight at any time, and so the X2 columns, are those of a part of the matrix, not all of
// it (an L2 working set of clustered graphs), at the cost of short shares on small matrices.
// Overridable with SDDMM_SDDMM_GRID_WAVES (1-64) and SDDMM_SDDMM_WAVE_PRODUCTS (0: always the most
// waves). Measured (H200, 2026-11-21, float32, 12 matrices x K = 32/128/256,
// geomean time against exactly 2 waves, the grid before): 4 waves 0.995, 8 1.002, up to 8 with 64
// entries per warp 0.978, with 128 0.979. SBM K = 256 1.92 / 1.60 / 1.46 ms at 2 / 4 / 8 waves
// (K = 128 0.81 / 0.75 / 0.72); R-MAT K = 256 2.45 -> 2.38; but uniform 8000^2 640k K = 128 0.0507 /
// 0.0530 / 0.0552 and pubmed K = 128 0.0150 / 0.0159 / 0.0181 (the rule keeps these at 2 and 1:
// 0.0505, 0.0148). One wave lost SBM K = 128 0.81 -> 0.95.
// The minimum was 64 entries at every K then; at K = 32 a warp's wave was 4 iterations, its
// start-up (first rows and columns) a large part of it. Sweep of the minimum in entries (d0aaeef,
// float32, 15 matrices x K = 32/128, geomean time against 64): 128 0.992, 256 0.979, 512 0.982,
// 1024 0.984; K = 32 uniform-8000-2.56M 0.0638 / 0.0615 / 0.0578 / 0.0571 / 0.0571 ms, 36000^2
// 0.0987 -> 0.0928 at 512, SBM 0.2448 -> 0.2395; K = 128 SBM 0.617 up to 256, 0.626 at 512, 0.710
// at 1024. A minimum of 32 iterations (512 entries at float32 K = 32, 128 at K = 128, 64 at 256),
// side by side over the suite: float32 K = 32 / 128 / 256 0.971 / 0.999 / 1.000, but float16 (4
// and 8 entries an iteration at K = 256 and 128) 0.978 / 1.004 / 1.005: uniform-8000-1.92M K = 128
// 0.0819 -> 0.0862 ms, 640k K = 256 0.0550 -> 0.0572. In products both types keep 64 entries at
// K = 256 and take 512 at K = 32: side by side, float32 0.955 / 0.998 / 0.999, float16 0.982 /
// 0.991 / 1.001. Around it (5996ada, 8 matrices x 3 K, float32 + float16, against 16384): 8192
// 1.002 / 1.004, 32768 0.997 / 1.003, 16384 again 0.997 / 0.998: a plateau.
constexpr int64_t kSddmmGridMaxWaves = 8;
constexpr int64_t kSddmmWaveMinProducts = 16384;

// SDDMM, CUDA cores: calls whose K makes X1's rows and X2's columns one 64- or 128-byte line take
// the line kernel (sddmm_line_kernel.cuh) instead of the entry kernel. Overridable with
// SDDMM_SDDMM_LINE_KERNEL (0 or 1). Measured (H200, 2026-11-25, 22 matrices, SDDMM_SDDMM_LINE_KERNEL
// 1 against 0 in one build, two rounds, median): geomean time float32 K = 32 0.832, float16 K = 32
// 0.872 (64-byte lines), K = 64 0.939; uniform-8000-6.4M float32 K = 32 0.1349 -> 0.1047 ms,
// 8000^2 1.28M 0.0321 -> 0.0270, 300000 x 103000 1.450 -> 1.036, R-MAT 0.398 -> 0.263, SBM 0.239 ->
// 0.186. Slower only on the two smallest graphs (9k and 13k entries, one iteration per warp):
// citeseer and cora about 1 us on 6 us kernels, where the same processes ran the unchanged K = 64
// kernel as much slower (process-to-process spread, bench/RESULTS.md).
constexpr bool kSddmmLineKernel = true;

// SDDMM, line kernel: at K <= kSddmmLineInterleaveMaxK its warps take the launch's iterations in
// turn on a grid of one wave (sddmm_kernel.cuh, warp_turns) instead of one contiguous share each,
// where they do not take whole rows. Overridable with SDDMM_SDDMM_LINE_INTERLEAVE (0 or 1).
// Measured (H200, 2026-11-25, one device call: this build against 6c29a9a's and against itself with
// the override at 0, two rounds, 13 matrices of >= 300k entries, geomean time against 6c29a9a):
// float32 K = 32 0.963 / 0.967 (contiguous shares in this build: 1.008 / 1.010), float16 K = 32
// (64-byte lines) 0.958 / 0.958 (0.978 / 0.979); banded 212.1 -> 185.5 us, SBM 191.0 -> 177.5,
// uniform-8000-6.4M 110.3 -> 107.5, uniform-106000-3M 56.9 -> 55.3, R-MAT 274.2 -> 268.3. But
// float16 K = 64 (128-byte lines) 0.999 / 0.998 against 0.984 / 0.984 contiguous, SBM 244.1 ->
// 266.7 us and R-MAT 366.2 -> 385.0 against 233.4 and 341.8: K = 64 keeps contiguous shares (not
// understood: the same lines and iterations as float32 K = 32, twice the conversions). float64
// (K = 8 / 16) not measured. Before it, an experiment build had found the interleaved iterations
// 0.96-0.98 of contiguous ones at float32 K = 32 (14 matrices), and column-blocked orders on top of
// them (entries by 256-1024 columns, then row) doubling the L1 hit rate on uniform-8000-6.4M (29 ->
// 63 %, L2 reads 770 -> 433 MB) but 5-35 % slower (bench/RESULTS.md).
constexpr bool kSddmmLineInterleave = true;
constexpr int64_t kSddmmLineInterleaveMaxK = 32;

// SDDMM, CUDA cores: warps take whole rows (an even split of the rows) instead of equal shares of
// the entries where rows hold at least this many entries on average, X2's columns exceed the L2
// and no row is heavy (the rule: choose_sddmm_kernel in sddmm.cu). Measured (H200, 2026-11-25, 22
// matrices x K = 32/128/256, SDDMM_SDDMM_ROW_SHARES 1 against 0 in one build, two rounds, float32):
// uniform 300000 x 103000 (230 per row, X2 105 MB at K = 256) 12.07 -> 10.14 ms at K = 256 (0.98 ->
// 1.16x cuSPARSE), 4.25 -> 4.12 ms at K = 128 (53 MB); but where X2 fits the L2 they lose: uniform
// 8000^2 +3-6 % at K = 128/256 and +8-15 % at K = 32 (the line kernel computes up to 15 entries per
// warp past its share's end), float16 K = 256 +13 %; and with short rows even past the L2: uniform
// 106000^2 (28 per row, X2 108 MB) +2 % at K = 256, +7 % at K = 128; SBM (55 per row, 205 MB) -1 %.
// The threshold lay between 55 and 230 entries, and was 128. Then (H200, 2026-11-27, one build, one
// run each, float32 K = 512, ms, rule at 128 / row shares forced): uniform-36000-4M (111 per row, X2
// 72 MB) 1.2833 / 1.1348 (cuSPARSE 0.966: 0.75 -> 0.85x); SBM (55) 2.574 / 2.640; uniform 106000^2,
// 685000^2, 916000^2 and R-MAT within 0.2 %. So 100: below the one winner at 111, above the losers;
// no suite cell at K <= 256 moves (uniform-36000-4M's X2 fits the L2 there).
constexpr int64_t kSddmmRowSharesMinMeanRow = 100;

// SDDMM, CUDA cores, float32 entry kernel (the vector path where neither the line nor the panel
// kernel takes the call): blocks of 1024 threads, one a multiprocessor (SddmmSmBlockConfig), where
// X2's columns exceed the L2 and the warps take equal shares of the entries (not whole rows). A
// multiprocessor's 32 warps then work on 32 neighbouring shares, one part of the matrix, where 4
// blocks of 256 worked on 4 parts: rows of one cluster that share X2 columns are in flight together
// and their gathers hit L1. ncu had the 256-thread kernel on SBM at K = 256 reading nnz x 32
// sectors from the L2 (no L1 hits) against cuSPARSE's 17 % fewer (bench/RESULTS.md). Measured
// (H200, 2026-11-27, one build, SDDMM_SDDMM_SM_BLOCKS 1 against 0, two rounds, best, ms): SBM K =
// 256 1.274 -> 1.170 (0.89 -> 0.97x cuSPARSE), K = 128 0.624 -> 0.588 (1.05 -> 1.11x); past the L2
// elsewhere uniform-106000-3M K = 256 +0.9 %, 685000-8M +0.4 %, 916000-5M, R-MAT and banded within
// 0.1 %; where X2 fits the L2 they lost: uniform-36000-4M +3 % at K = 128 / 256, uniform-106000-3M
// K = 128 +1.8 %, uniform-4000-88k +4-5 %, the graphs -3 to +10 % (6-20 us cells); 14 matrices x 2
// K geomean 1.007. The rule keeps them at 256. SDDMM_SDDMM_SM_BLOCKS=1 / 0 forces them on / off.
constexpr bool kSddmmSmBlocksPastL2 = true;

// SDDMM, float32 output, the entry kernel's vector path: the call as launches over equal parts of
// K (sddmm/k_parts_rule.hpp; sddmm.cu, run_k_parts), the first storing each entry's sum over its
// part, the middle ones adding theirs, the last adding its own and scaling by A's value, where X2
// exceeds the L2: the warps in flight gather from a part of X2 instead of all of it. The lead:
// SDDMM at K = 256 on uniform-106000-3M gathered the same 3.07 GB from an X2 of 108 MB as SpMM at
// N = 256 from its X, in the same time, before SpMM took its column tiles share-major
// (kSpmmTilesOuterMaxShareOfL2). The rule: the fewest parts of which one fits the L2 (up to
// kSddmmKPartFitShareOfL2 of it), no narrower than kSddmmKPartMinK, at most kSddmmKPartsMax;
// below K = kSddmmKPartsUnboundedMinK (halves of 128 at K = 256) only where a part is at most
// kSddmmKPartMaxShareOfL2 of the L2. Measured (H200, 2026-11-28, one build,
// SDDMM_SDDMM_K_PARTS 1 / 2 / 4 / 8, ms, rounds within 0.5 %; a part's share of the L2 in
// brackets; * what the rule takes; cuSPARSE last):
//   uniform-106000-3M K =  256  0.580 / *0.470 (0.86) / 0.451 (64 wide) / 0.648; 0.626
//                     K =  512  1.280 / 1.167 (1.7) / *0.947 (0.86) / 0.913 (64 wide); 1.405
//                     K = 1024  2.926 / 2.563 / 2.337 (1.7) / *1.903 (0.86); 3.005
//   300000 x 103000   K =  512  27.09 / 21.9 / *18.2 / 18.23; 24.37
//                     K = 1024  69.9 / 54.2 / 42.9 / *36.9; 49.5
//   uniform-36000-4M  K =  512  1.134 / *0.960 (0.59) / 0.981 / 1.083; 0.952
//                     K = 1024  3.217 / 2.280 (1.17) / *1.927 (0.59) / 1.966; 2.29
//   p2p-Gnutella31    K =  512  0.0665 / *0.0660 (1.02) / 0.0692 / -; 0.165
//                     K = 1024  0.1591 / 0.1381 / *0.1336 (1.02) / 0.140; 0.311
//   SBM 200000        K =  256  *1.167 / 1.216 (1.63) / 1.452 / 2.076; 1.120
//                     K =  512  2.815 / 2.38 (3.3) / *2.47 (1.63) / 2.94; 2.15
//                     K = 1024  8.70 / 5.74 / 4.88 (3.3) / *4.97 (1.63); 4.33
//   banded-1000000    K =  512  5.58 / 3.61 / *2.72 (8.1) / 3.52; 4.49
//                     K = 1024  15.73 / 11.21 / 7.86 / *5.46 (8.1); 8.24
//   blockdiag-262144  K =  512  4.03 / 3.54 / *3.46 (2.1) / 4.44; 2.35
//                     K = 1024  12.58 / 8.03 / 7.08 / *6.81 (2.1); 4.61
//   rmat-s20          K =  256  *2.259 / 2.115 (8.3) / 2.475 / 4.91; 8.26
//                     K =  512  5.29 / 4.69 / *4.41 / 5.24; 16.3
//                     K = 1024  12.81 / 10.53 / 9.35 / *9.01; 33.4
//   uniform-685000^2  K =  256  *2.033 / 2.031 (5.6) / 2.086 / 3.77; 2.70
//                     K =  512  4.055 / 4.066 / *4.075 (5.6) / 4.20; 5.10
//                     K = 1024  10.92 / 8.11 / 8.14 / *8.17 (5.6); 9.95
//   uniform-916000^2  K =  256  *1.406 / 1.433 (7.5) / 1.497 / 2.71; 2.80
//                     K =  512  2.775 / 2.816 / *2.875 (7.5) / 3.01; 5.04
//                     K = 1024  7.50 / 5.56 / 5.62 / *5.77 (7.5); 9.53
// From K = 512, one launch lost to parts of 128 wherever X2 exceeds the L2 but on 916000^2 at K =
// 512 (+3.6 %) and 685000^2 (+0.5 %); and lost to parts at K = 1024 even where X2 fits (uniform
// 8000^2 6.4M 3.12 -> 2.91 halves; where X2 fits parts are not taken: the small graphs lost,
// cora 0.0103 -> 0.0140 at K = 512, uniform 4000^2 0.0286 -> 0.0325). Parts of 64 columns lost or
// about tied past the L2 except uniform-106000-3M (4 %), and everywhere at K = 128 (halves: SBM
// 0.652 -> 0.825, uniform-36000-4M +18 %, 300000 x 103000 +13 %): hence at least 128. The fewest
// that fit, not the most: uniform-36000-4M at K = 512, p2p at both. The bound at K = 256: SBM's
// halves (1.63) lost 4 %, 916000^2's (7.5) 2 %, while rmat's gained 6 %; the H100's 106000-3M
// halves at 1.04 of its L2 gained 0.8357 -> 0.6318 ms (1.02 -> 1.35x, 2026-11-28).
constexpr int kSddmmKPartMinK = 128;
constexpr int kSddmmKPartsMax = 8;
constexpr double kSddmmKPartFitShareOfL2 = 1.1;
constexpr int64_t kSddmmKPartsUnboundedMinK = 512;
constexpr double kSddmmKPartMaxShareOfL2 = 1.25;

// SDDMM, CUDA cores: plans carry the panel order (cuda/panels.cuh) where X2 fits the L2 at 512-byte
// rows and entries spread at random over the pattern's size would share each X2 column read of a
// 64-row panel at least this many times on average (uniform_panel_column_reuse: 1.36 for uniform
// 8000^2 at 1 % density, 1.18 for uniform 4000^2 at 0.55 %); calls whose X1 rows are 512, 1024 or
// 2048 bytes and whose X2 fits the L2 then take the panel kernel, float32's also in place of the
// tensor-core split. Overridable with SDDMM_SDDMM_PANELS (1: wherever its keys fit, 0: never) and
// SDDMM_SDDMM_PANEL_REUSE (the threshold). Measured (H200, 2026-11-25, 22 matrices, float32 and
// float16 at K = 128 / 256, this rule against no panels in one build, two rounds, median us):
// uniform 8000^2 640k / 1.28M / 1.92M / 2.56M / 3.2M / 6.4M float32 K = 128 42.6 / 78.6 / 114.2 /
// 149.2 / 185.4 / 308.1 -> 38.9 / 65.2 / 91.7 / 117.0 / 143.3 / 274.0, K = 256 80.8 / 152.5 / 221.7 /
// 296.4 / 361.6 / 560.7 (6.4M: the split) -> 67.2 / 115.0 / 164.0 / 211.6 / 255.4 / 470.9 (cuSPARSE
// 0.88-1.04x -> 1.07-1.25x); float16 K = 256 640k / 1.28M / 1.92M 56.9 / 104.1 / 151.9 -> 47.2 /
// 83.2 / 119.1 (the denser ones keep their tensor cores); geomean over the suite float32 K = 128
// 1.62 -> 1.68x, K = 256 1.59 -> 1.70x; nothing else moved by more than noise. Plan time +0.04-0.5
// ms (1.28M 0.46-0.48 -> 0.50-0.63, 6.4M 1.91-1.98 -> 2.40-2.49 before its float32 units were
// dropped). A first rule, an exact count of entries per (panel, column) pair at >= 1.3 (a
// synchronisation and an allocation more at creation), also took SBM, whose X2 exceeds the L2 (102
// / 205 MB): 625 -> 689 and 1276 -> 1302 us (hence the L2 condition). Forced on where neither rule
// takes it: uniform 4000^2 88k +3-14 %, uniform 37000^2 368k +6-8 %, the five graphs +7 % to 2.1x,
// and past the L2 uniform 106000^2 +5-15 %, 300000 x 103000 1.5-1.9x.
constexpr double kSddmmPanelMinReuse = 1.3;

// SDDMM panel kernel (sddmm_panel_kernel.cuh): its grid is as many waves of the blocks the device
// runs at once as give each block at least this many entries (at least one wave, at most
// kSddmmGridMaxWaves), where it had been one wave. More, shorter blocks stage each panel's X1 rows
// more often but let the multiprocessors that finish early take more work. Measured (H200,
// 2026-11-27, a probe of the waves from the environment, uniform 8000^2 float32, two rounds, ms,
// 1 / 2 / 3 / 4 / 6 waves): 6.4M K = 128 0.2742 / 0.2652 / 0.2570 / 0.2558 / 0.2788 (cuSPARSE
// 0.2948), K = 256 0.4694 / 0.4666 / 0.4670 / 0.4673 / 0.4709; 3.2M K = 128 0.1435 / 0.1409 /
// 0.1487 / 0.1439 / 0.1562, K = 256 0.2560 / 0.2565 / 0.2574 / 0.2590 / 0.2656; 640k to 2.56M fastest
// at one wave (640k K = 128 0.0388 / 0.0409 / 0.0435; 1.92M 0.0912 / 0.0929; 2.56M 0.1166 / 0.1166).
// The best counts give ~6000 entries a block on both matrices that gain (264 resident blocks: 6.4M at
// 4 waves, 3.2M at 2) and every smaller one stays at one wave. SBM, whose plans carry no panel order,
// with one forced (SDDMM_SDDMM_PANELS=1; X2 past the L2): K = 256 1.305 / 1.157 (4) / 1.094 (12)
// against the entry kernel's 1.164, K = 128 0.693 / 0.601 / 0.575 against 0.586: more waves keep a
// band of clusters' columns in the L2, but the order's creation cost and memory were not worth
// 2-6 % (bench/RESULTS.md). Overridable with SDDMM_SDDMM_PANEL_BLOCK_ENTRIES (0: the most waves),
// which sets kSddmmPanelBlockEntriesHalf too.
constexpr int64_t kSddmmPanelBlockEntries = 6000;
// The same for 16-bit features (float16 / bfloat16: K = 256, 512 and 1024 take the panel kernel),
// whose entries carry twice the products per byte of a row: measured (H200, 2026-11-27, uniform
// 8000^2, one build, two rounds, ms, 6000 / one wave / 3000): float16 K = 512 1.92M 0.2260 / 0.2255
// / 0.2212 (6000 and one wave are the same grid there), 2.56M 0.2964 / 0.2962 / 0.2896, 3.2M 0.3579
// / 0.3657 / 0.3540, 6.4M 0.6885 / 0.7129 / 0.6894; bfloat16 K = 512 1.92M 0.2057 / 0.2046 /
// 0.2029, 2.56M 0.2683 / 0.2685 / 0.2643, 3.2M 0.3258 / 0.3318 / 0.3244, 6.4M 0.6246 / 0.6449 /
// 0.6258; K = 256 (640k and 1.28M: denser ones take the wgmma squares on sm_90) one wave at both.
// float32 at 1-KB rows (K = 256) lost 1-1.5 % at 3000 in the same run (6.4M 0.4676 -> 0.4743, 3.2M
// 0.2561 -> 0.2590), hence a threshold for 16-bit features of its own.
constexpr int64_t kSddmmPanelBlockEntriesHalf = 3000;

// SDDMM tiles (sddmm/sddmm_tile_kernel.cuh): float32 plans carry tile entries (cuda/tile_entries.cuh:
// their entries again in tile order, 8 + i + v bytes each) where their tiles of 128 rows x 256
// columns hold at least this many entries on average and every row's columns ascend; float32 calls
// whose X1 rows and X2 columns are one 128-byte line (K = 32) then take the tile kernel instead of
// the line kernel. A block copies its tile's X2 columns and X1 rows into shared memory once and
// reads both from there, so that X2 crosses the L2 once a row of tiles instead of once an entry.
// Overridable with SDDMM_SDDMM_TILES (1: wherever the tiles are not far more than the entries, 0:
// never) and SDDMM_SDDMM_TILE_ENTRIES (the threshold).
// Measured (H200, uniform 8000^2, 2016 tiles, float32 K = 32, medians, us, tiles off / on; e80: one
// build, the rule at 900 against SDDMM_SDDMM_TILES=0, two processes each; 640k and 1.28M forced on
// in e79): 640k (317 entries a tile) 14.0 / 21.5, 1.28M (635) 23.0 / 26.1, 1.92M (952) 31.4 / 31.0,
// 2.56M (1270) 40.3 / 36.5, 3.2M (1587) 48.9 / 41.8, 6.4M (3175) 92.5 / 68.9 (cuSPARSE 16.5 / 29.0
// / 37.1 / 44.3 / 52.1 / 89.0). Plan creation with the list (e80, ms, off / on, the two processes):
// 1.92M 0.481 / 0.529, 0.394 / 0.535; 2.56M 0.563 / 0.563, 0.534 / 0.540; 3.2M 0.637 / 0.661, 0.573
// / 0.581; 6.4M 0.980 / 1.060, 0.910 / 0.975. So 1200: 1.92M would gain 1 % a call for up to 0.14
// ms more plan time (3.3 -> 3.7x one SDDMM at K = 256), 2.56M gains 9 % and more. Before the tile
// entries the kernel read per-row bounds and found each entry's row in shared memory (e72-e77,
// bench/RESULTS.md: 26.0 / 32.2 / 38.0 / 44.5 / 50.2 / 81.5 us from 640k to 6.4M), which paid at
// 6.4M alone (threshold 3000).
constexpr int64_t kSddmmTileMinEntries = 1200;

// SpMM: light rows that need at most this many waves of blocks (one row per lane group, the blocks
// the device runs at once: cuda/occupancy.cuh) are launched a block per 256 threads' rows and left
// to the hardware's block scheduler; more take the persistent grid of one wave. Measured (H200,
// 2026-11-21, 11 matrices x N = 32/128/256, two rounds; only 1 and 2 tried): at 1 the persistent
// grid cost uniform 8000^2 (8000 rows: 1000 blocks against 792 resident) 2-6 % (6.4M N = 128 0.268
// -> 0.283 ms); at 2 it is back (0.269), geomean time 0.965x the grid before occupancy against 0.977x.
constexpr int64_t kSpmmScheduledWaves = 2;

// SpMM: light rows averaging at least this many entries per lane group may get a whole warp each
// (slices of the row per group, combined by shuffles), when one group per row would leave the GPU
// underfilled (src/cuda/spmm/spmm.cu). Measured on the H200 (6a1812d vs c3858c3): uniform 8000^2 at
// N = 32 (80-320 entries per row) 1.33-1.48x faster. The sweep 8/16/32/64 on 779877e moved none of
// the underfilled cases; what it showed (slicing hurts rows that fill the GPU) is the occupancy test.
constexpr int64_t kSpmmEntriesPerSlice = 8;

// SpMM, float32 features in lane groups narrower than a warp (N <= 64): where the light rows
// average at least kSpmmDeepRowsMinMean entries, the deep configuration (SpmmConfig's kDeepRows:
// 16 entries' indices and values loaded at once, the loop unrolled 16 deep, then 4 at a time);
// sliced rows stay sliced unless the few-rows rule below takes them. 0 turns it off;
// SDDMM_SPMM_DEEP_ROWS overrides. Measured (H200, 2026-11-27, N = 32, one build,
// SDDMM_SPMM_DEEP_ROWS 0 against 16, best of two rounds, ms):
// uniform-36000-4M 0.0697 -> 0.0624 (1.00 -> 1.11x cuSPARSE), 106000-3M 0.0606 -> 0.0565,
// block-diagonal 0.2308 -> 0.2179, uniform-4000-88k 0.0110 -> 0.0104, uniform 8000^2 1.28M-3.2M
// 2-5 % (3.2M 0.0506 -> 0.0483); SBM 0.1458 -> 0.1468; R-MAT and banded (15 and 11 entries a row)
// do not take it. Tried in the same calls: unsliced deep rows on uniform 8000^2 (a block's 32 rows
// walking their columns together, as cuSPARSE's ALG3) lost 18-43 % with the registers bounded at
// 48 (3-4 of the 16 X rows in flight), and won with them unbounded (the few-rows rule below); 8
// entries in flight lost to 16 everywhere (SBM 0.1487 against 0.1785).
constexpr int64_t kSpmmDeepRowsMinMean = 16;

// SpMM, the deep configuration where its light rows are few: one lane group per row, never sliced,
// with the registers a full GPU would share out (SpmmFewRowsConfig: __launch_bounds__(256, 2),
// 110-128 registers on sm_90, 2 blocks per multiprocessor, all 16 X rows in flight), where the
// rows' groups fill at most kSpmmFewRowsMaxWaves waves of that kernel's resident threads and, where
// the slicing rule would slice them, at least kSpmmFewRowsMinWavesSliced of one. The rows of a
// block then walk their columns side by side, as cuSPARSE's CSR_ALG3 (250 blocks of 32 rows, 255
// registers, 66 % L1 hits on uniform 8000^2). SDDMM_SPMM_FEW_ROWS=0 / 1 turns it off / on wherever
// deep rows run. Measured (H200, 2026-11-27, one build, two rounds, best, ms; sliced rule /
// unsliced with the registers bounded / unsliced unbounded), N = 32 (8000 rows: 0.95 of a wave):
// uniform 8000^2 640k 0.0173 / 0.0209 / 0.0156, 1.28M 0.0252 / 0.0343 / 0.0234, 1.92M 0.0334 /
// 0.0477 / 0.0310, 2.56M 0.0407 / 0.0605 / 0.0389, 3.2M 0.0488 / 0.0730 / 0.0459, 6.4M (slab kernel
// off) 0.0893 / 0.1340 / 0.0780; uniform-4000-88k (unsliced by the rule, 0.47 of a wave) 0.0106 / -
// / 0.0087. N = 64 (8000 rows: 1.9 waves): 640k 0.0251 / 0.0220 / 0.0243, 1.28M 0.0393 / 0.0349 /
// 0.0373, 2.56M 0.0663 / 0.0623 / 0.0616, 6.4M 0.1433 / 0.1431 / 0.1367; uniform-4000-88k 0.0096 /
// 0.0100 / 0.0091. Sliced rows with registers unbounded lost (640k N = 32 0.0173 -> 0.0186, N = 64
// 0.0251 -> 0.0264). Rows that fill more (36000^2 and up, SBM) do not take it.
constexpr double kSpmmFewRowsMaxWaves = 2.0;

// SpMM, the few-rows form for long rows (SpmmFewRowsConfig<..., true>: whole rounds' indices and
// values in 16-byte loads, after a masked first round up to an aligned entry), where the few-rows
// rule takes the call, its lane groups are at most kSpmmFewLongRowsMaxGroup lanes (N <= 32 in
// float32) and its light rows average at least kSpmmFewLongRowsMinMean entries. ncu (H200,
// uniform-8000-6.4M, N = 32) had the few-rows kernel at 74 % of its L1 throughput with 23 % of
// warps active: the 8 lanes of a group load the same index and value, 4 groups a warp, so each of
// a round's 32 scalar index and value loads cost a wavefront per group, as much as its 16
// gathers. The masked first round costs a round trip per row, so only long rows gain.
// SDDMM_SPMM_FEW_LONG_ROWS sets the mean (0: never; 1: wherever few-rows runs, any group).
// Measured (H200, 2026-11-27, one build, that variable 0 / 1, two rounds, best, ms), N = 32:
// uniform 8000^2 6.4M (800 a row) 0.0751 -> 0.0703 (0.97 -> 1.03x cuSPARSE), 3.2M (400) 0.0417 ->
// 0.0419, 2.56M 0.0349 -> 0.0354, 1.92M 0.0283 -> 0.0287, 640k 0.0144 -> 0.0150,
// uniform-4000-88k (22) 0.0084 -> 0.0093; N = 64 (16-lane groups, 2 rows a warp) lost or tied
// everywhere: 6.4M 0.1176 -> 0.1175, 3.2M 0.0660 -> 0.0702, 1.28M 0.0322 -> 0.0363. 600 lies
// between the 400 that tied and the 800 that gained. The same loads in the deep configuration for
// every call lost up to 26 % where rows are short (uniform-106000-3M, SBM, uniform-4000-88k), both
// with the 1-3 entries before an aligned one as a round of their own and with a first round of
// 13-15 entries and the rest in one round, each size a branch: the groups of a warp took different
// branches one after another (and masked rounds of up to 16 entries took the deep kernel from 48 to
// 155 registers). Blocks of aligned 64-entry rows gained there (block-diagonal N = 32 0.2171 ->
// 0.1802 ms); not taken, as no rule separated them from the losses.
constexpr int kSpmmFewLongRowsMaxGroup = 8;
constexpr int64_t kSpmmFewLongRowsMinMean = 600;

// SpMM, whole-warp light rows (float32, N > 128): each row's column tiles of 128 columns dealt over
// 2^shift warps (a warp per row and share of its tiles, up to 8) where a warp per light row fills
// at most kSpmmSplitTilesMaxWaves waves of the device's resident threads (H200: 25,344 rows) and
// the light rows average at most kSpmmSplitTilesMaxMean entries (spmm/split_tiles_rule.hpp,
// light_tile_shift): there a few rows of up to 16-32 entries beside many of 2-5 (the small graphs'
// degree tails) can hold the kernel while most warps are idle, and two warps each take half of such
// a row's columns. Overridable with SDDMM_SPMM_SPLIT_TILES (1: wherever N > 128, 0: never).
// Measured (H200, 2026-11-27, N = 256, SDDMM_SPMM_SPLIT_TILES 0 against 1 or the rule in one build,
// two rounds, ms): pubmed 0.0345 -> 0.0299, ca-CondMat 0.0437 -> 0.0386, citeseer 0.0103 -> 0.0094
// (the rule's three gains); cora 0.0092 -> 0.0099 (the rule takes it; cause not found); taken
// everywhere: banded +12.6 %, R-MAT +4.2 %, uniform 685000^2 +2.1 %, 916000^2 +3.2 % (millions of
// rows, so no idle warps to fill, and each row's indices loaded by two warps); p2p-Gnutella31 (7.4
// waves) and uniform-37000-368k (4.4) within 0.5 %; an earlier build (the split loop in the plain
// kernel, 40 registers) lost 5-20 % on uniform 8000^2 (80-240 entries a row) and 6 % on
// uniform-4000-88k (22), won 10-28 % on the graphs and SBM at N = 512.
constexpr double kSpmmSplitTilesMaxWaves = 3.0;
constexpr int64_t kSpmmSplitTilesMaxMean = 16;
// ... and, at 4 tiles or more (N > 384), where X exceeds the L2 and the light rows average at
// least kSpmmSplitTilesWideMinMean entries. Measured (H200, 2026-11-27, N = 512,
// SDDMM_SPMM_SPLIT_TILES 0 against 1, one build, two rounds, ms): uniform 300000 x 103000 (230 a
// row, X 211 MB) 24.14-25.05 -> 17.55-17.61 (0.87-0.90x -> 1.24x cuSPARSE), SBM (55, 410 MB)
// 2.916 -> 2.735, uniform-36000-4M (111, 74 MB) 0.985 -> 0.944, uniform-106000-3M (28) within
// 0.5 %; losses where it does not take them: banded (11) +18.8 %, uniform 8000^2 6.4M (X 16 MB)
// +15.3 %, 1.28M +8.5 %, uniform 916000^2 +6.0 %, R-MAT +4.7 %, uniform 685000^2 +3.0 %; and where
// it does: block-diagonal (64 a row, X 537 MB, each column's rows together) +14.4 % (2.65 -> 3.03,
// 1.68 -> 1.47x cuSPARSE). At N = 256 (2 tiles) the first four moved within 2.2 % (300000 x 103000
// 8.145 -> 8.110, SBM 1.290 -> 1.319), so 2 tiles keep the first rule alone; 3 tiles (N = 384) were
// not measured and are not taken.
constexpr int64_t kSpmmSplitTilesWideMinMean = 32;
// ... and share-major (spmm/split_tiles_rule.hpp, light_tiles_outer; SpmmArgs::light_tiles_outer):
// the tiles dealt over as many warps as the split above deals them at most (N = 256: 2, 512: 4),
// but every light row's first share before any row's second, so that the warps in flight read one
// share of X instead of all of it. ncu (H200, 2026-11-28, uniform-106000-3M at N = 256, X 108
// MB): our whole-warp kernel read 1.98 GB from DRAM at 29 % L2 hits where cuSPARSE's ALG2, as
// fast there, read 1.27 GB at 51 %; on an H100 (50 MB of L2, 3.0 TB/s) the cell was 0.89x
// cuSPARSE. Taken where X and Y together exceed the L2, one share of X is at most
// kSpmmTilesOuterMaxShareOfL2 of the L2 and the light rows average at least
// kSpmmTilesOuterMinMean entries. Measured (H200, 2026-11-28, SDDMM_SPMM_TILES_OUTER 0 against 1
// in one build, two rounds, best, ms; share of X over the L2 in brackets): N = 256
// uniform-106000-3M (0.86) 0.5684 -> 0.4599 (1.03 -> 1.27x cuSPARSE), uniform-37000-368k (0.30,
// 10 a row; X + Y 76 MB) 0.0615 -> 0.0562, uniform-36000-4M (0.29) 0.4714 -> 0.4626, 300000 x
// 103000 (0.84) 8.168 -> 8.043; N = 512 106000-3M 1.298 -> 0.943 (0.89 -> 1.22x), 37000-368k
// 0.1579 -> 0.1076 (0.95 -> 1.39x), 300000 x 103000 17.58 -> 16.17, 36000-4M 0.941 -> 0.932.
// Where one share exceeds the L2 it lost or gained by the matrix: SBM (1.6) N = 256 1.297 ->
// 1.361 but N = 512 3.095 -> 2.807; block-diagonal (2.1) N = 256 1.380 -> 1.768, N = 512 3.965 ->
// 3.507; banded (8.1) +19 / +25 %, uniform 916000^2 (7.5) +5 / +8 %, R-MAT +6 %, uniform 685000^2
// within 0.2 %; and with X and Y in the L2, uniform-8000-1.28M +3 / +2 %. The bound lies between
// the largest share that gained (0.86) and the smallest that lost (1.6); 1.25 takes the H100's
// uniform-106000-3M (54.3 MB against its 52.4). The mean: the shortest rows measured (10 a row).
constexpr double kSpmmTilesOuterMaxShareOfL2 = 1.25;
constexpr int64_t kSpmmTilesOuterMinMean = 8;
constexpr double kSpmmFewRowsMinWavesSliced = 0.9;

// SpMM, float32 features in whole-warp groups (N > 64): where the light rows average at least
// kSpmmSharedIndicesMinMean entries, the warp loads a row's indices and values 32 at a time, one
// per lane, and hands them round by shuffles (spmm_kernel.cuh), instead of each lane loading each
// entry's index and value. Overridable with SDDMM_SPMM_SHARED_INDICES (0 or 1). Measured (H200,
// 2026-11-25, 22 matrices, float32). First the shared path in the whole-warp kernel for every
// whole-warp call, against the kernel before, N = 128 / 256: uniform 8000^2 640k-6.4M 0.90-0.97x,
// uniform-36000-4M (111 entries a row) 1.00x; block-diagonal (64 a row) 1.03 / 1.06x, banded (11)
// 1.22 / 1.19x, uniform-916000-5M (5.5) 1.20 / 1.19x, R-MAT (15) 1.08 / 1.11x: a batch of 32
// lanes' loads for a row of a few entries loses. Then as now (its own kernel, from 80 entries a
// row), SDDMM_SPMM_SHARED_INDICES 1 against 0 in one build: geomean time 0.979 / 0.964; uniform
// 8000^2 0.91-0.98x at N = 128 (2.56M 0.1215 -> 0.1108 ms), 0.89-0.96x at N = 256 (6.4M 0.5732 ->
// 0.5172); the matrices that do not take it within 1-2 % (the same kernel).
constexpr bool kSpmmSharedIndices = true;
constexpr int64_t kSpmmSharedIndicesMinMean = 80;

// SDDMM, float16/bfloat16: a 16 x 64 block of the matrix (a "unit", cuda/tiles.cuh) goes to the
// tensor-core kernel when its entries fill at least this share of its 1024 cells; sparser units
// stay on the CUDA-core kernel, which gathers per entry and does no work for empty cells. A unit
// costs 8 * K / 16 mma.sync whatever its occupancy; an entry on CUDA cores K * 2 bytes of L2
// traffic, so the crossover is a density. Overridable with SDDMM_TC_MIN_DENSITY (0: every unit with
// an entry; above 1: none). Measured (H200, fp16, K = 256, sweep on 0973021): uniform 8000^2 at 2 % density 0.274 ms on tensor cores vs 0.164 ms on CUDA cores, 3 %
// 0.270 vs 0.241, 4 % 0.272 vs 0.317, 10 % 0.290 vs 0.777; block-diagonal 0.299 vs 2.20; SBM 1.08 vs
// 1.38.
constexpr double kTensorCoreMinDensity = 0.03;

// ... and at K = 32 or 64, where an entry on CUDA cores costs 8x less, the dense units take the
// tensor cores only when they are this full on average (else every entry stays on CUDA cores).
// Measured (same run, K = 32): uniform 8000^2 at 3 % 0.058 ms vs 0.041, 4 % 0.059 vs 0.051, 10 %
// 0.083 vs 0.109; block-diagonal (100 %) 0.145 vs 0.293; SBM 0.234 vs 0.200.
constexpr double kTensorCoreMinDensitySmallK = 0.08;

// ... and at K = 128 or 256 when they are this full on average. Since 16-bit features are held as
// words (04b6e1f, 269348a) the CUDA-core kernel is 1.2-1.5x faster, and a plan whose dense units
// are barely past kTensorCoreMinDensity runs faster without them. Measured (H200, 2026-11-21,
// float16, SDDMM_TC_MIN_DENSITY swept on 269348a; ms with the units / without, K = 128 and 256;
// the units' share of the entries and mean fill from the same listing simulated in numpy): uniform
// 8000^2 3 % (57 % of the entries, 3.4 % full) 0.098 / 0.082 and 0.160 / 0.146; 4 % (97 %, 4.1 %)
// 0.111 / 0.105 and 0.169 / 0.190; SBM (88 %, 5.0 %) 0.419 / 0.420 and 0.677 / 0.792; uniform 10 %
// 0.130 / 0.243 and 0.185 / 0.459; block-diagonal 0.194 / 0.604 and 0.234 / 1.168. Float32 units
// are listed at kTensorCoreMinDensityFloat32 and always pass.
constexpr double kTensorCoreMinDensityLargeK = 0.037;

// Float32 plans in the TF32 split (three mma per step) at K = 32 or 64 take the listed units only
// when they average this full. Measured (H200, 2026-11-21, on aeec520, ms with the units / without
// (SDDMM_F32_TENSOR_CORES=0), K = 32 and 64): uniform 8000^2 10 % (units 10 % full) 0.1505 /
// 0.1381 and 0.1920 / 0.1827; banded (16.5 %) 0.2949 / 0.2894 and 0.3776 / 0.3816;
// block-diagonal (100 %) 0.2269 / 0.3618 and 0.2456 / 0.4587. At K = 128 and 256 the split's units
// win from 10 % (0.307 / 0.348, 0.559 / 0.720).
// The same for float16/bfloat16 features on a float32 plan (the half arithmetic on its units), whose
// CUDA-core K = 32 runs the 16-bit line kernel. Measured (H200, 2026-11-25, bfloat16 / float16
// features with float32 values, us with the units at 8 % / without, SDDMM_TC_MIN_DENSITY_F32=2):
// K = 32 banded (16.5 %) 173.2 / 123.4 and 173.7 / 129.8, block-diagonal (100 %) 155.9 / 194.7 and
// 155.8 / 209.7; K = 128 banded 285.5 / 438.1, block-diagonal 189.0 / 577.4; K = 256 banded 414.0 /
// 789.3, block-diagonal 216.6 / 1119.9. K = 64 not measured.
constexpr double kTensorCoreMinDensitySmallKStrict = 0.2;

// SDDMM, float32: plans list their dense units for the tensor-core kernel, which computes them in
// the float32-accurate TF32 split (three mma per step; sddmm_config.cuh) - or in plain TF32 when the
// plan was created with SDDMM_CREATE_ALLOW_TF32, whatever this says. Overridable with
// SDDMM_F32_TENSOR_CORES (0 or 1). Measured (H200, f51c9a3, same run with the units and without;
// ms at K = 32 / 128 / 256): block-diagonal 0.251 / 0.358 / 0.682 vs 0.511 / 1.731 / 3.645; banded
// 0.371 / 0.800 / 1.834 vs 0.409 / 1.109 / 2.239; uniform 8000^2 10 % 0.165 / 0.397 / 0.831 vs
// 0.176 / 0.621 / 1.287. The cost is plan time: 1.8 -> 3.7 ms on block-diagonal (16.8M entries).
constexpr bool kFloat32TensorCores = true;

// ... and the share of a unit's cells that must hold entries for it to go to the tensor cores in
// float32 (the split costs three mma per step, a float32 entry on CUDA cores twice the bytes of a
// half one). Overridable with SDDMM_TC_MIN_DENSITY_F32. Measured (sweep 0.02-0.25 on f51c9a3 and
// cc03d7e, K = 256): uniform 8000^2 at 10 % takes every unit from 0.06 down (0.831 ms; at 0.10
// half of them, 1.093; none, 1.287); at 4 % (2.56M) units from 0.05 down lose (0.588 vs 0.531);
// SBM's units (5-10 % full) lose at any share (0.05: 2.63 vs 2.32 ms).
constexpr double kTensorCoreMinDensityFloat32 = 0.06;

// A plan keeps its dense units only when they hold at least this share of its entries: the
// entries left to the CUDA-core kernel are then read through a list, which costs more than a few
// dense units save. Overridable with SDDMM_TC_MIN_SHARE. Measured (float32, cc03d7e, K = 256): SBM
// with 0.3 % of its entries in units 2.53 ms vs 2.32 without; uniform 8000^2 at 4 % with 6.6 %
// 0.588 vs 0.531.
constexpr double kTensorCoreMinShare = 0.25;

// 16-bit plans whose dense units are at least this share of all the matrix's 16 x 64 units index
// their cells (TensorTiles::cell_entries), and their SDDMM at K = 256 takes the square kernel
// (sddmm_tensor_square_kernel.cuh: a block per 8 x 2 units, every unit computed, a third fewer L2
// bytes) instead of the unit kernel. Overridable with SDDMM_TC_SQUARE_COVER (above 1: never).
// Measured (H200, 2026-11-25, float16, SDDMM_TC_SQUARE_COVER 2 against the default in one build,
// two rounds, us): uniform 8000^2 K = 256 2.56M 162.4 -> 154.9, 3.2M 162.0 -> 149.1, 6.4M 178.5 ->
// 175.7 (3 stages; with the unit kernel's 2: 157.9, 151.7, 173.6); at K = 128 (two slices) 2.56M
// 103.7 -> 108.6, 3.2M 104.2 -> 106.5, 6.4M 126.0 -> 128.7: K = 128 keeps the unit kernel. The
// cover itself is not swept: the uniform matrices that list units cover 97-100 % of theirs,
// block-diagonal and SBM much less (they keep the unit kernel).
constexpr double kTensorSquareMinCover = 0.9;

// On devices of compute capability 9.0, in builds with the Hopper kernels (SDDMM_HOPPER_KERNELS),
// 16-bit plans that index their cells take the wgmma square kernel at K = 128 and 256
// (sddmm_wgmma_square_kernel.cuh) instead of the mma.sync square kernel (K = 256) or the unit
// kernel (K = 128), whatever the units' mean fill (sddmm.cu, tensor_core_entries). Overridable
// with SDDMM_TC_WGMMA (0: never). Measured (H200, 2026-11-26, float16, 0 against 1 in one build,
// two rounds, us): uniform 8000^2 K = 256 2.56M 156.3 / 157.1 -> 110.6 / 111.0, 3.2M 151.8 / 152.3
// -> 107.4 / 107.7, 6.4M 175.8 / 176.1 -> 128.0 / 127.8; K = 128 2.56M 103.6 -> 88.0, 3.2M 104.4 ->
// 87.3, 6.4M 127.6 -> 109.7. On the units both kernels take, the outputs are the mma.sync kernels'
// bit for bit (tests/cuda/tensor_core_test.cpp: 0 of 108,044 differed on the H200 before the fill
// rule below; with it the wgmma plan also lists a few units of the test's sparse strip that the
// mma.sync plan leaves to the CUDA cores, and 1-4 float16 outputs differ, H100).
constexpr bool kTensorWgmmaSquares = true;

// ... and the walk kernel takes them (sddmm_wgmma_walk_kernel.cuh at K = 128,
// sddmm_wgmma_walk_entry_warps_kernel.cuh at K = 256: a block a multiprocessor holds a row tile's
// X1 rows while it walks the row's chunks, writing one tile's entries out while the next one's
// products run) instead of the square kernel
// where the matrix is at least this dense: 2.5 %, the density from which 16-bit plans list their
// units for the wgmma kernels (kTensorWgmmaMinMatrixDensity below), so that the squares keep only
// plans sparser than that whose units still cover the matrix. Overridable with SDDMM_TC_WGMMA_WALK
// (1 wherever the squares run, 0 never). Measured (H200, 2026-11-29, the copy-warp form, 1 against
// 0 in one build, float16 (bfloat16 within 1 %), us, K = 128 / 256): uniform 8000^2 at 10 % (6.4M)
// 71.4 / 94.2 against 109.4 / 127.1, 5 % 67.7 / 89.4 against 82.9 / 102.6, 4 % 67.2 / 88.5 against
// 78.2 / 98.1, 3 % 66.4 / 87.3 against 73.2 / 93.5: won everywhere it was measured; below 3 % no
// plan of the suite takes the wgmma kernels. Four copy warps (661a95b) took the walk to 67.2 / 84.5,
// 61.4 / 77.0, 60.6 / 76.2 and 58.2 / 74.2 us at those densities, X1 in registers (17f391f) to
// 63.4 / 77.15, 56.35 / 72.35, 55.15 / 71.0 and 53.65 / 69.75 (the squares not measured again).
// The kernel's first form (8 warps, each copying and multiplying) lost from 3 to 5 % (85.8-87.6 /
// 105.2-107.5 us) and took the walk from 7.5 %. The rule: sddmm/walk_rule.cpp.
constexpr double kTensorWgmmaWalkMinDensity = 0.025;

// ... and such plans list their units from this fill (SDDMM_TC_WGMMA_MIN_DENSITY) instead of
// kTensorCoreMinDensity where the matrix holds at least kTensorWgmmaMinMatrixDensity of its cells:
// the squares compute every cell at nearly GEMM speed, so on a matrix that dense the units the
// plan would leave to the CUDA cores cost a second kernel more than they save, and the plans just
// below the cover (3 % dense) pay for squares too. Below that density the CUDA-core kernel wins.
// Measured (H200, 2026-11-26, float16, the wgmma build with SDDMM_TC_MIN_DENSITY swept for every
// 16-bit plan, us at K = 128 / 256): uniform 8000^2 2 % (1.28M) CUDA cores 60.1 / 83.0, squares at
// 0.01 72.0 / 93.1; 3 % (1.92M) CUDA cores 84.0 / 119.2, squares at 0.015 77.8 / 98.2, at 0.01
// 73.6 / 93.7; 4 % (2.56M) at 0.03 (3 % of its entries left to the CUDA cores) 87.4 / 110.9, at
// 0.01 78.4 / 99.3. The 2.5 % between the 2 % that lost and the 3 % that won is not measured.
constexpr double kTensorWgmmaMinDensity = 0.01;
constexpr double kTensorWgmmaMinMatrixDensity = 0.025;

// SpMM, 16-bit plans: where the dense units (listed for SDDMM by the thresholds above) fill at
// least this share of their cells on average, the plan also lists them strip by strip and SpMM
// takes the tensor-core kernel (spmm_tensor_kernel.cuh: each unit one 16 x 64 by 64 x N product,
// its 64 rows of X staged whatever the unit's fill, where the CUDA cores gather one row of X per
// entry, many of them from L1 where neighbouring rows share columns). Overridable with
// SDDMM_SPMM_TC_MIN_FILL (above 1: never). Measured (H200, 2026-11-26, float16, the kernel forced
// on with 0 against off with 2 in one build, ms at N = 32 / 128 / 256; `sddmm-bench --suite fill`,
// block-diagonal 262144 with 64 x 64 blocks filled at random): 100 % 0.187 / 0.493 / 0.913 ->
// 0.068 / 0.240 / 0.451; 50 % 0.073 / 0.232 / 0.445 -> 0.051 / 0.178 / 0.336; 25 % 0.047 / 0.136 /
// 0.239 -> 0.041 / 0.144 / 0.272; 12.5 % 0.036 / 0.091 / 0.148 -> 0.037 / 0.128 / 0.242; 6.25 %
// loses 1.2-2.1x; banded-1000000-w5 (units about 11 % full) 0.110 / 0.364 / 0.691 -> 0.177 /
// 0.599 / 1.166; in the call before (same kernel), SBM (units about 5 % full) 0.109 / 0.311 / 0.680
// -> 0.343 / 1.124 / 2.117 and uniform-8000-3.2M (5 %) 0.039 / 0.096 / 0.179 -> 0.224 / 0.258 /
// 0.479. The cut between 25 % (lost at N = 128 and 256) and 50 % (won at every N) is not measured
// further.
constexpr double kSpmmTensorMinFill = 0.375;

// Plan creation counts the entries in dense units first (a counter per unit: preprocess/census.cu)
// where the units' counters fit in the plan's CSC row array (units <= about nnz), and skips the
// tensor-core listing when that count says it would keep no unit. Overridable with
// SDDMM_UNIT_CENSUS (0 or 1). Measured (H200, 2026-11-25, 7d62eda, float32 plans of the 22 suite
// matrices, census 1 against 0 in one build, two rounds interleaved, plan ms): where it skips the
// listing, uniform 8000^2 640k 0.435 -> 0.33, 1.28M 0.508 -> 0.39, 3.2M 0.956 -> 0.56, 36000^2 4M
// 0.990 -> 0.60, 300000 x 103000 10.4 -> 7.3; where the units pay it is added cost, uniform
// 8000^2 6.4M 1.435 -> 1.58; where the counters do not fit (R-MAT, SBM, block-diagonal, banded,
// the sparser uniform) the same within noise. Plan / one SDDMM at K = 256 (nnz >= 1M): 13 of 14
// within 3x (12 of 14 without).
constexpr bool kUnitCensus = true;

// SpMM, float32, X and Y row-major with rows of 128, 256, 512 or 1024 bytes (N = 32, 64, 128, 256):
// the slab kernel (spmm/spmm_slab_kernel.cuh) where no outer index is heavy, the inner indices of
// each ascend, and the entries are at least kSpmmSlabMinReuse times the rows of X times the
// blocks, each of which reads all of X (one per multiprocessor). Below, the light-row kernel's
// per-entry gathers, which hit L1 for about 60 % of their sectors (ncu, uniform-8000-6.4M N = 32),
// cost less than every multiprocessor taking in all of X: the slabs reach the multiprocessors at
// about 5 TB/s in all (uniform-8000-640k at N = 256: 132 x 8 MB in 0.216 ms), whether by cp.async,
// bulk copies or bulk copies multicast to clusters of 2 blocks (X read from L2 once a cluster:
// no faster; clusters of 4 fell back to the light-row kernel, cause not checked). Overridable with SDDMM_SPMM_SLABS (1: wherever
// the kernel runs, 0: never) and SDDMM_SPMM_SLAB_REUSE. Measured (H100, 2026-11-26, uniform 8000^2,
// reuse = nnz / (132 x 8000), SDDMM_SPMM_SLABS 1 against 0 in one build, two rounds, ms):
//   640k (0.6)  N = 32 0.0351 vs 0.0186, N = 256 0.2163 vs 0.0806
//   1.28M (1.2) N = 256 0.2231 vs 0.1414
//   2.56M (2.4) N = 256 0.2566 vs 0.2531
//   3.2M (3.0)  N = 32 0.0609 vs 0.0530, N = 128 0.1456 vs 0.1431, N = 256 0.2755 vs 0.3059
//   6.4M (6.1)  N = 32 0.0913 vs 0.0936, N = 128 0.2049 vs 0.2549, N = 256 0.3746 vs 0.5648
// and uniform 36000^2 4M (0.8) within 0.5 % (not taken). The crossing lies between 2.4 and 3.0 at
// N = 256 (1-KB rows: kSpmmSlabMinReuseWideRows), above 3.0 at N = 128 and near 5 at N = 32 (the
// narrower the rows, the more each entry's shuffles and address work weigh): 4 for rows up to
// 512 bytes (N = 64 not measured). SDDMM_SPMM_SLAB_REUSE sets every threshold. Again after the entry stage
// (H200, 2026-11-27, the same comparison, best of two rounds): N = 256 at 1.92M (1.8) 0.1887 vs
// 0.1788, 2.56M (2.4) 0.2095 vs 0.2280, so the wide rows' crossing lies between 1.8 and 2.4: 2.25;
// at N = 32 3.2M 0.0547 vs 0.0488, at N = 128 3.2M 0.1335 vs 0.1324: 4 holds. Once the few-rows
// kernel took 32-bit addresses (spmm_config.cuh, SpmmFewRowsConfig), 128-byte rows (N = 32) lost
// with slabs at 6.1 too (H200, 2026-11-27, uniform-8000-6.4M, best of two rounds: 0.0791 vs 0.0744
// ms with the few-rows kernel) while N = 64 kept them (0.1171 vs 0.1274): the light-row side led
// by 11 % at 3.0 and 6 % at 6.1, a gap that closes near 10 if it narrows linearly (no suite
// matrix lies above 6.1; not measured there): kSpmmSlabMinReuseNarrowRows.
constexpr double kSpmmSlabMinReuseNarrowRows = 10.0;
constexpr double kSpmmSlabMinReuse = 4.0;
constexpr double kSpmmSlabMinReuseWideRows = 2.25;

// SpMM's L2 hints (cuda/l2_hints.cuh; the rule in spmm/l2_hint_rule.hpp): float32 whole-warp
// calls (N > 64) whose X exceeds the L2 and whose busiest rows of X, as many as fill
// kSpmmL2HintsShare of the L2, hold at least kSpmmL2HintsMinSkew times their share of X's rows and
// at least kSpmmL2HintsMinEntries of the entries: those rows loaded evict_last, the others
// evict_first, Y stored evict_first. Plans count X's rows by class (a histogram) where X could
// exceed the L2 at rows of kSpmmL2HintsMinRowBytes (N = 64 in float32, below the whole-warp calls'
// narrowest), and keep each entry's class (a byte an entry) only where the rule gives some row
// length up to kSpmmL2HintsMaxRowBytes hints. SDDMM_SPMM_L2_HINTS: 1 hints wherever the kernel has
// them (the hot rows at most half of X's), 0 no classes and no hints.
// Measured on a probe first (H200, 2026-11-27, R-MAT scale 20 relabelled, a warp a row of at most
// 256 entries, 8 in flight, two rounds, ms; plain loads 1.086 at N = 128, 2.112-2.122 at N = 256):
// hot rows filling 0.3 / 0.5 / 0.7 / 0.9 of the L2 (72 / 81 / 85 / 88 % of the entries at N = 128)
// 1.019-1.034 / 1.011-1.028 / 1.018-1.031 / 1.020-1.040 at N = 128, 1.960-2.003 / 1.938-1.979 /
// 1.948-1.985 / 1.957-1.989 at N = 256, the lower of each pair with Y stored evict_first too; the
// other rows at normal priority 1.037-1.055 / 2.030-2.063; every load evict_first 1.225 / 2.562.
// Hence half the L2 and Y evict_first. In the library (H200, one build, two rounds, against
// SDDMM_SPMM_L2_HINTS=0, ms): R-MAT N = 256 2.6545-2.6562 -> 2.5382-2.5398 (1.05 -> 1.10x
// cuSPARSE), N = 128 1.3292-1.3297 -> 1.3255-1.3258; the indices and values loaded evict_first too
// (64 registers, 4 blocks: at 48 they spilled) lost, 2.6480-2.6496 and 1.3610-1.3639. A first skew
// bound of 2 gave uniform-916000-5M hints at N = 256 (its Poisson tail, 5.5 entries a column on
// average, puts twice their share of the entries in the busiest rows), 1.5203 -> 1.5880 ms: 4 and
// a quarter of the entries keep it and uniform-685000-8M out (R-MAT's 31k busiest rows at N = 256:
// 3 % of X, 69 % of the entries).
constexpr int64_t kSpmmL2HintsMinRowBytes = 256;
constexpr int64_t kSpmmL2HintsMaxRowBytes = 8192;  // N = 2048: the widest whose classes a plan keeps
constexpr double kSpmmL2HintsShare = 0.5;
constexpr double kSpmmL2HintsMinSkew = 4.0;
constexpr double kSpmmL2HintsMinEntries = 0.25;

// The slab rule's thresholds by the length of X's rows (the slab kernel takes 128, 256, 512 and
// 1024 bytes).
struct SlabMinReuse {
  double narrow_rows = 0.0;  // 128-byte rows
  double rows = 0.0;         // 256 and 512 bytes
  double wide_rows = 0.0;    // 1024 bytes
  double for_row_bytes(int64_t bytes) const { return bytes <= 128 ? narrow_rows : bytes >= 1024 ? wide_rows : rows; }
  double lowest() const {
    const double lower = narrow_rows < rows ? narrow_rows : rows;
    return lower < wide_rows ? lower : wide_rows;
  }
};

// Plan creation's scratch (cuda/creation_scratch.cuh) comes from a pool the library keeps per
// device when it is at most the smaller of kCreationPoolMaxBytes and 1 / kCreationPoolDeviceShare
// of the device's memory; the pool keeps that much between creations. Host time of one block
// taken and given back (H200, 2026-11-26, bench/alloc_probe.cpp, median of 31): cudaMalloc +
// cudaFree 104 / 131 / 198 / 441 us at 4 / 32 / 128 / 512 MB; a pool that keeps its memory 11 /
// 11 / 14 / 20 us; a pool that gives it back at each synchronisation (the default pool's release
// threshold of 0) 121 / 131 / 400 / 1541 us, hence cudaMalloc above the bound. The bound was
// 256 MiB, the scratch of the suite's plans up to about 10M entries (16-28 bytes an entry); the
// plans above it gained from a larger one (e98, bench/plan_timer.cpp, one process, 30 rounds of 5
// creations, median ms against 256 MiB at 512 MiB / 2 GiB): block-diagonal 262144 2.739 -> 2.482 /
// 2.396, R-MAT s20 2.491 -> 2.424 / 2.321, 300000 x 103000 7.398 -> 6.760 at 2 GiB; the plans under
// 256 MiB within 3 us. Hence 2 GiB, and 1 % of the device's memory where that is less (1.4 GB on
// an H200, 0.8 GB on an 80 GB H100), which keeps the memory held small on small GPUs.
// SDDMM_CREATION_POOL_BYTES sets the bound (0: no pool).
constexpr int64_t kCreationPoolMaxBytes = int64_t{2} << 30;
constexpr int64_t kCreationPoolDeviceShare = 100;

// The values as plan creation reads them: the constants above, or the environment variable named
// beside each when it holds a valid value (for the benchmark's before/after runs).
int64_t spmm_heavy_row_entries();  // SDDMM_SPMM_HEAVY_ROW_ENTRIES
int64_t spmm_heavy_row_entries_few();  // SDDMM_SPMM_HEAVY_ROW_ENTRIES_FEW
int64_t spmm_heavy_row_mean_factor();  // SDDMM_SPMM_HEAVY_ROW_FACTOR
int64_t spmm_entries_per_slice();  // SDDMM_SPMM_ENTRIES_PER_SLICE
bool spmm_shared_indices();  // SDDMM_SPMM_SHARED_INDICES
int64_t spmm_deep_rows_min_mean();  // SDDMM_SPMM_DEEP_ROWS
int spmm_few_rows();  // SDDMM_SPMM_FEW_ROWS: 1 or 0, else -1 (the rule)
int64_t spmm_few_long_rows_min_mean();  // SDDMM_SPMM_FEW_LONG_ROWS
int spmm_split_tiles();  // SDDMM_SPMM_SPLIT_TILES: 1 or 0, else -1 (the rule)
int spmm_tiles_outer();  // SDDMM_SPMM_TILES_OUTER: 1 or 0, else -1 (the rule)
int spmm_slabs();  // SDDMM_SPMM_SLABS: 1 or 0 when set so, else -1 (the rule)
int spmm_l2_hints();  // SDDMM_SPMM_L2_HINTS: 1 or 0 when set so, else -1 (the rule)
SlabMinReuse spmm_slab_min_reuse();  // SDDMM_SPMM_SLAB_REUSE sets all three
double spmm_tensor_min_fill();  // SDDMM_SPMM_TC_MIN_FILL
int64_t sddmm_grid_max_waves();  // SDDMM_SDDMM_GRID_WAVES
int64_t sddmm_wave_min_products();  // SDDMM_SDDMM_WAVE_PRODUCTS
bool sddmm_line_kernel();  // SDDMM_SDDMM_LINE_KERNEL
bool sddmm_line_interleave();  // SDDMM_SDDMM_LINE_INTERLEAVE
int sddmm_row_shares();    // SDDMM_SDDMM_ROW_SHARES: 1 or 0 when set so, else -1 (the rule)
int sddmm_sm_blocks();     // SDDMM_SDDMM_SM_BLOCKS: 1 or 0 when set so, else -1 (the rule)
int sddmm_k_parts();       // SDDMM_SDDMM_K_PARTS: the launches over parts of K when set >= 1, else 0 (the rule)
int sddmm_panels();        // SDDMM_SDDMM_PANELS: 1 or 0 when set so, else -1 (the rule)
double sddmm_panel_min_reuse();  // SDDMM_SDDMM_PANEL_REUSE
int64_t sddmm_panel_block_entries(bool half_features);  // SDDMM_SDDMM_PANEL_BLOCK_ENTRIES
int sddmm_tiles();         // SDDMM_SDDMM_TILES: 1 or 0 when set so, else -1 (the rule)
int64_t sddmm_tile_min_entries();  // SDDMM_SDDMM_TILE_ENTRIES
double tensor_core_min_density();  // SDDMM_TC_MIN_DENSITY
double tensor_core_min_density_float32();  // SDDMM_TC_MIN_DENSITY_F32
double tensor_core_min_share();  // SDDMM_TC_MIN_SHARE
double tensor_square_min_cover();  // SDDMM_TC_SQUARE_COVER
bool tensor_wgmma_squares();  // SDDMM_TC_WGMMA
int tensor_wgmma_walk();  // SDDMM_TC_WGMMA_WALK: 1 or 0 when set so, else -1 (the rule)
double tensor_wgmma_min_density();  // SDDMM_TC_WGMMA_MIN_DENSITY
bool unit_census();  // SDDMM_UNIT_CENSUS
bool float32_tensor_cores();  // SDDMM_F32_TENSOR_CORES
size_t creation_pool_bytes(size_t device_bytes);  // SDDMM_CREATION_POOL_BYTES
// Not a tuning value: SDDMM_PLAN_INDICES_64=1 gives a plan 64-bit indices whatever its sizes, so that
// the tests run the 64-bit instantiations, which otherwise take only matrices past 2^31 rows,
// columns or entries.
bool plan_indices_64();

}  // namespace sddmm::cuda
