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

// CTA output tile (tile_m x tile_n) and MAC-loop step (tile_k), in elements.
struct TileShape {
  int64_t m = 128;
  int64_t n = 128;
  int64_t k = 64;
};

// The part of the GPU a plan is built for: SMs available and CTAs of this kernel resident per SM.
struct GpuShape {
  int64_t sms = 132;
  int64_t ctas_per_sm = 1;
};

LW_HD int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
LW_HD int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
LW_HD int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

}  // namespace lw
