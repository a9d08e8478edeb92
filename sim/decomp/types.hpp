// Problem, tile and GPU shapes: the integer inputs every planner and executor starts from.
#pragma once
#include <cstdint>

#include "sim/decomp/hd.hpp"

namespace lw {

// C(m x n) = A(m x k) * B(k x n); extents in elements.
struct Problem {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
};

// Bytes per element of A, B and C: lastwave's GEMMs are bf16 throughout.
constexpr int64_t kBf16Bytes = 2;
// L2 lines (and requests) are 128 bytes: the kernels' operand L2 promotion rule
// (cuda/tensor_map.hpp) and the cost models' line traffic (models/roofline/traffic.hpp).
constexpr int64_t kL2LineBytes = 128;

// CTA output tile (tile_m x tile_n) and MAC-loop step (tile_k), in elements.
struct TileShape {
  int64_t m = 128;
  int64_t n = 128;
  int64_t k = 64;
};

// CTAs of one thread-block cluster along M and N (1x1 = no cluster). A cluster's CTAs are
// dispatched together, work on adjacent tiles of one cluster tile and share operand loads.
struct ClusterShape {
  int64_t m = 1;
  int64_t n = 1;
};

// The part of the GPU a plan is built for: SMs available and CTAs of this kernel resident per SM.
// Cluster sizes (CTAs) a GpuShape can carry a residency limit for: CUDA's portable maximum.
inline constexpr int kMaxClusterCtas = 8;
struct GpuShape {
  int64_t sms = 132;
  int64_t ctas_per_sm = 1;
  // Clusters of the plan's cluster shape that can be resident at once, as a device measured them
  // (cudaOccupancyMaxActiveClusters); 0 = not measured: clusters_by_size decides.
  int64_t max_active_clusters = 0;
  // Resident clusters by cluster size in CTAs (index = size), from the GPU preset: the hardware
  // packs a cluster into one GPC, so SMs left over in each GPC stay idle; 0 = sms * ctas_per_sm /
  // size.
  int64_t clusters_by_size[kMaxClusterCtas + 1] = {};
};

LW_HD int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
LW_HD int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
LW_HD int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

}  // namespace lw
