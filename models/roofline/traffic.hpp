// Operand and output traffic of a tiled bf16 GEMM: bytes per MAC iteration and per tile, and the
// modelled fraction of operand bytes that miss L2 (compulsory misses, inflated when the operands
// do not fit in L2). Shared by the `roofline` and `calibrated` models.
#pragma once
#include <cstdint>

#include "sim/decomp/plan.hpp"

namespace lw::traffic {

constexpr double kBf16Bytes = 2.0;  // A, B and C elements
constexpr double kFp32Bytes = 4.0;  // partial accumulator tiles in the workspace
constexpr double kFlopsPerMac = 2.0;
constexpr double kBytesPerMiB = 1024.0 * 1024.0;
// The kernels load operands in 16-byte cp.async chunks (8 bf16) only when K is a multiple of 8;
// otherwise they fall back to element-wise predicated loads (cuda/kernel/mainloop.cuh).
constexpr int64_t kVectorLoadElems = 8;

inline bool vector_loads(const Problem& p) { return p.k % kVectorLoadElems == 0; }

// A and B slabs loaded by one MAC iteration of one tile.
inline double operand_bytes_per_iter(const TileShape& t) {
  return static_cast<double>(t.m + t.n) * static_cast<double>(t.k) * kBf16Bytes;
}
inline double flops_per_iter(const TileShape& t) {
  return kFlopsPerMac * static_cast<double>(t.m) * static_cast<double>(t.n) *
         static_cast<double>(t.k);
}
inline double output_tile_bytes(const TileShape& t) {
  return static_cast<double>(t.m) * static_cast<double>(t.n) * kBf16Bytes;
}
inline double partial_tile_bytes(const TileShape& t) {
  return static_cast<double>(t.m) * static_cast<double>(t.n) * kFp32Bytes;
}

// Fraction in [0, 1] of operand bytes that come from DRAM: unique A+B bytes over bytes loaded by
// all tiles (every byte is fetched once if L2 holds it), scaled up by footprint / L2 when A+B
// exceed the L2 size.
inline double dram_fraction(const Plan& p, double l2_mib) {
  const double unique = static_cast<double>(p.problem.m + p.problem.n) *
                        static_cast<double>(p.problem.k) * kBf16Bytes;
  const double loaded = static_cast<double>(p.tiles) * static_cast<double>(p.k_tiles) *
                        operand_bytes_per_iter(p.tile);
  if (loaded <= 0) return 1.0;
  double f = unique / loaded;
  const double l2_bytes = l2_mib * kBytesPerMiB;
  if (l2_bytes > 0 && unique > l2_bytes) f *= unique / l2_bytes;
  return f < 1.0 ? f : 1.0;
}

}  // namespace lw::traffic
