// Operand and output traffic of a tiled bf16 GEMM: bytes per MAC iteration and per tile, the
// modelled fraction of operand bytes that miss L2 (compulsory misses, inflated when the operands
// do not fit in L2) and the in-flight operand working set. Shared by `roofline` and `calibrated`.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "models/panel_lag.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/plan.hpp"

namespace lw::traffic {

constexpr double kFp32Bytes = 4.0;  // partial accumulator tiles in the workspace
constexpr double kFlopsPerMac = 2.0;
constexpr double kBytesPerMiB = 1024.0 * 1024.0;
// The kernels load operands in 16-byte chunks (8 bf16): rows of K % 8 != 0 elements are first
// copied into padded rows (plan_stages_operands) and read from there (staging_bytes).

// DRAM bytes the staging copy moves (A and B read at their rows, written at padded rows); 0 for a
// plan that does not stage.
inline double staging_bytes(const Plan& p) {
  if (!plan_stages_operands(p)) return 0.0;
  const auto rows = static_cast<double>(p.problem.m + p.problem.n);
  return rows * static_cast<double>(p.problem.k + staged_row_pitch(p.problem.k)) * kBf16Bytes;
}

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

// Shared-memory operand bytes the tensor cores read per k-tile in the wgmma kernel: each consumer
// warpgroup issues, per 64-row block it owns, instructions that read a 64-row slab of A and a slab
// of B as wide as its block (the consumers' split, in the wgmma's frame: a swapped tile reads B's
// rows as the instruction's A; sim/decomp/kernel_configs.hpp); consumers that alternate k-tiles
// read each k-tile's slabs once.
inline double wgmma_smem_bytes_per_iter(const TileShape& tile) {
  const TileShape t = wgmma_frame(tile);
  // Alternating consumers: one of them reads the whole tile's A and B slabs per k-tile.
  if (wgmma_consumers_alternate_k(tile)) {
    return static_cast<double>((t.m + t.n) * t.k) * kBf16Bytes;
  }
  const int64_t consumers_n = wgmma_consumers_along_n(static_cast<int>(t.m));
  const int64_t block_rows = t.m / (kWgmmaConsumers / consumers_n);
  const int64_t block_cols = t.n / consumers_n;
  const int64_t row_blocks = std::max<int64_t>(1, block_rows / kWgmmaRows);
  return static_cast<double>(kWgmmaConsumers * row_blocks * (kWgmmaRows + block_cols) * t.k) *
         kBf16Bytes;
}

inline int64_t gcd64(int64_t a, int64_t b) { return b == 0 ? a : gcd64(b, a % b); }

// Rows after which operand row starts repeat their offset within a `unit_bytes` block (a line, a
// sector): row r starts at byte r x pitch, pitch = K x 2 bytes, so the period is
// unit / gcd(pitch mod unit, unit) rows (1: every row starts on a boundary).
inline int64_t row_offset_period(int64_t k, int64_t unit_bytes) {
  const int64_t pitch = k * static_cast<int64_t>(kBf16Bytes);
  return unit_bytes / gcd64(pitch % unit_bytes, unit_bytes);
}

// Mean L2 lines (kL2LineBytes, sim/decomp/types.hpp) one k-tile touches per operand row (A rows and
// B rows are both K-contiguous with pitch K elements; a row slice that does not start on a line
// touches one line more). Row r starts at byte r * K * 2 (mod 128), so the offsets repeat with
// period 128 / gcd(2K, 128) rows; k-tile starts add multiples of tile.k * 2 bytes. Averaged over
// one period of rows for the first k-tile (tile.k * 2 a multiple of 128: every k-tile is alike).
inline double l2_lines_per_row(const TileShape& t, int64_t k) {
  const int64_t row_bytes = t.k * static_cast<int64_t>(kBf16Bytes);
  const int64_t pitch = k * static_cast<int64_t>(kBf16Bytes);
  const int64_t period = row_offset_period(k, kL2LineBytes);
  if (row_bytes % kL2LineBytes == 0) {  // whole lines: every row but the aligned one spans one more
    return static_cast<double>(row_bytes / kL2LineBytes) + 1.0 - 1.0 / static_cast<double>(period);
  }
  int64_t lines = 0;
  for (int64_t r = 0; r < period; ++r) {
    const int64_t offset = (r * pitch) % kL2LineBytes;
    lines += (offset + row_bytes + kL2LineBytes - 1) / kL2LineBytes;
  }
  return static_cast<double>(lines) / static_cast<double>(period);
}

// L2 requests (128-byte lines) of one k-tile: tile.m A rows and tile.n B rows.
inline double l2_requests_per_iter(const TileShape& t, int64_t k) {
  return static_cast<double>(t.m + t.n) * l2_lines_per_row(t, k);
}

// L2 sectors are 32 bytes, a quarter of a line. A k-tile's row slice (tile.k x 2 bytes, a whole
// number of sectors) whose start is not on a sector boundary touches one sector more. Row r
// starts at r x pitch (mod 32), so the share of rows that do is 1 - 1 / period, period =
// 32 / gcd(pitch mod 32, 32) rows: 0 when K % 16 == 0, 1/2 when K % 16 == 8, 3/4 when K % 8 == 4.
constexpr int64_t kL2SectorBytes = 32;

inline double extra_sectors_per_row(int64_t k) {
  const int64_t period = row_offset_period(k, kL2SectorBytes);
  return 1.0 - 1.0 / static_cast<double>(period);
}

// Operand rows one CTA of a cluster loads per k-tile. The cluster.n CTAs of a cluster row share
// the A rows (each loads 1/cluster.n of them and multicasts the slice), the cluster.m CTAs of a
// cluster column share B likewise: tile.m / cluster.n A rows + tile.n / cluster.m B rows. 1x1:
// tile.m + tile.n.
inline double cta_a_rows(const TileShape& t, const ClusterShape& c) {
  return static_cast<double>(t.m) / static_cast<double>(c.n);
}
inline double cta_b_rows(const TileShape& t, const ClusterShape& c) {
  return static_cast<double>(t.n) / static_cast<double>(c.m);
}
inline double cta_operand_rows(const TileShape& t, const ClusterShape& c) {
  return cta_a_rows(t, c) + cta_b_rows(t, c);
}

// Mean out-of-bounds operand rows per CTA and k-tile over the plan's tiles: the rows of the last
// tile row (A) and tile column (B) past M and N, which the CTA's boxes still cover (the loads fill
// them with zeros), shared by the cluster as cta_operand_rows shares rows.
inline double cta_oob_rows(const Plan& p) {
  const double cta_rows_m = static_cast<double>(p.tiles_m * p.cluster.m);
  const double cta_rows_n = static_cast<double>(p.tiles_n * p.cluster.n);
  if (cta_rows_m <= 0 || cta_rows_n <= 0) return 0.0;
  const double oob_a =
      (cta_rows_m * static_cast<double>(p.tile.m) - static_cast<double>(p.problem.m)) / cta_rows_m;
  const double oob_b =
      (cta_rows_n * static_cast<double>(p.tile.n) - static_cast<double>(p.problem.n)) / cta_rows_n;
  return std::max(0.0, oob_a) / static_cast<double>(p.cluster.n) +
         std::max(0.0, oob_b) / static_cast<double>(p.cluster.m);
}

// Out-of-bounds rows of the operand a cluster's CTAs share, per CTA, in the plan tile `tile` (a
// cluster tile): a 2x1 cluster shares B, whose panel is past N by (column + 1) x W - N rows (W the
// cluster tile's width), each CTA loading 1/cluster.n of it; a 1x2 cluster shares A likewise. 0
// for 1x1 and for tiles inside the problem.
inline double cluster_shared_oob_rows(const Plan& p, int64_t tile) {
  const auto past = [](int64_t index, int64_t width, int64_t extent) {
    return static_cast<double>(std::clamp<int64_t>((index + 1) * width - extent, 0, width));
  };
  double rows = 0;
  if (p.cluster.m > 1) {
    rows += past(tile_coord_n(p, tile), p.tile.n * p.cluster.n, p.problem.n) /
            static_cast<double>(p.cluster.n);
  }
  if (p.cluster.n > 1) {
    rows += past(tile_coord_m(p, tile), p.tile.m * p.cluster.m, p.problem.m) /
            static_cast<double>(p.cluster.m);
  }
  return rows;
}

// The largest share of a CTA's operand rows (tile.m + tile.n) that cluster_shared_oob_rows makes
// out of bounds over the plan's tiles: the last tile column's (2x1) or row's (1x2).
inline double max_cluster_oob_share(const Plan& p) {
  if (p.tiles_m < 1 || p.tiles_n < 1) return 0.0;
  const int64_t last = p.tiles - 1;  // the last tile row and column under either raster
  return cluster_shared_oob_rows(p, last) / static_cast<double>(p.tile.m + p.tile.n);
}

// L2 requests one CTA of cluster `c` issues per k-tile (multicast slices; FLOPs are unchanged).
inline double cta_l2_requests_per_iter(const TileShape& t, const ClusterShape& c, int64_t k) {
  return cta_operand_rows(t, c) * l2_lines_per_row(t, k);
}

// Operand bytes one CTA of cluster `c` loads per k-tile.
inline double cta_operand_bytes_per_iter(const TileShape& t, const ClusterShape& c) {
  return cta_operand_rows(t, c) * static_cast<double>(t.k) * kBf16Bytes;
}

// Bytes of A and B (each fetched from DRAM at least once).
inline double unique_operand_bytes(const Plan& p) {
  return static_cast<double>(p.problem.m + p.problem.n) * static_cast<double>(p.problem.k) *
         kBf16Bytes;
}

// Compulsory share of the operand bytes all tiles load: unique A+B bytes over loaded bytes, in
// [0, 1] (1 when nothing is loaded).
inline double compulsory_fraction(const Plan& p) {
  // p.tiles counts cluster tiles; each of their CTAs loads its multicast share.
  const double loaded = static_cast<double>(p.tiles) * static_cast<double>(p.k_tiles) *
                        static_cast<double>(p.cluster.m * p.cluster.n) *
                        cta_operand_bytes_per_iter(p.tile, p.cluster);
  if (loaded <= 0) return 1.0;
  return std::min(1.0, unique_operand_bytes(p) / loaded);
}

// Fraction in [0, 1] of operand bytes that come from DRAM (footprint rule, no working set): the
// compulsory fraction, scaled up by footprint / L2 when A+B exceed the L2 size.
inline double dram_fraction(const Plan& p, double l2_mib) {
  const double unique = unique_operand_bytes(p);
  double f = compulsory_fraction(p);
  const double l2_bytes = l2_mib * kBytesPerMiB;
  if (l2_bytes > 0 && unique > l2_bytes) f *= unique / l2_bytes;
  return f < 1.0 ? f : 1.0;
}

// Operand working set of the segments in flight: the full-K A row-panels of `rows` distinct tile
// rows plus the B column-panels of `cols` distinct tile columns, in MiB. Panels are counted at the
// problem's mean panel height / width (a skinny M loads fewer than tile.m rows per A panel).
inline double working_set_mib(const Plan& p, int64_t rows, int64_t cols) {
  if (p.tiles_m <= 0 || p.tiles_n <= 0) return 0.0;
  const double panel_m = static_cast<double>(p.problem.m) / static_cast<double>(p.tiles_m);
  const double panel_n = static_cast<double>(p.problem.n) / static_cast<double>(p.tiles_n);
  const double elems = static_cast<double>(rows) * panel_m + static_cast<double>(cols) * panel_n;
  return elems * static_cast<double>(p.problem.k) * kBf16Bytes / kBytesPerMiB;
}

// The share of that working set L2 must hold for reuse. A compact block of tiles in flight (a
// rasterised wave: busy tiles ~ rows x cols) shares each panel among tiles that started together
// and walk K in step, so panel slices are reused as they stream; tiles scattered over the tile
// space reuse a panel only if L2 keeps it: the share of the rows x cols block that is not in
// flight (0 for a compact block, -> 1 when scattered).
inline double scattered_share(int64_t rows, int64_t cols, double busy) {
  const double block = static_cast<double>(rows) * static_cast<double>(cols);
  if (block <= 0) return 0.0;
  return 1.0 - std::min(1.0, busy / block);
}

// Rows of output tile `tile` inside the problem: tile.m, or fewer for the last tile row of an M
// that is not a multiple of it (at least 1).
inline int64_t valid_tile_rows(const Plan& p, int64_t tile) {
  const int64_t row0 = tile_coord_m(p, tile) * p.tile.m;
  return std::max<int64_t>(1, std::min(p.tile.m, p.problem.m - row0));
}

// Steepness of the capacity-miss curve below: (ws / L2)^4 puts the miss fraction at 6 % for a
// working set of half the effective L2, 50 % at its size and 94 % at twice it (LRU-like caches
// with a spread of reuse distances; a hard step would make the fit non-smooth).
constexpr double kCapacityMissExponent = 4.0;

// Fraction in [0, 1) of operand loads that miss L2 because the working set does not fit: a smooth
// step x^e / (1 + x^e) in x = working set / effective L2 size.
inline double capacity_miss(double working_set_mib, double l2_effective_mib) {
  if (working_set_mib <= 0 || l2_effective_mib <= 0) return 0.0;
  static_assert(kCapacityMissExponent == 4.0, "x^4 is computed as two squarings (no pow call)");
  const double r = working_set_mib / l2_effective_mib;
  const double x = (r * r) * (r * r);
  return x / (1.0 + x);
}

// The share of a slice's loads that come from DRAM after a reuse gap: all of a first fetch; else
// the capacity miss of what is loaded in between, gap x `mib_per_gap_iter`, at most the problem's
// whole A+B (`footprint_mib`).
inline double one_gap_miss(double gap, double mib_per_gap_iter, double footprint_mib,
                           double l2_reuse_mib) {
  return gap < 0 ? 1.0
                 : capacity_miss(std::min(gap * mib_per_gap_iter, footprint_mib), l2_reuse_mib);
}

// Mean of one_gap_miss over gap quantiles (models/panel_lag.hpp). The quantiles ascend and
// often repeat: a repeated gap reuses the term just computed (the same value, summed in order).
inline double gap_miss(const GapQuantiles& gaps, double mib_per_gap_iter, double footprint_mib,
                       double l2_reuse_mib) {
  double sum = 0;
  double gap_before = gaps[0];
  double miss = one_gap_miss(gap_before, mib_per_gap_iter, footprint_mib, l2_reuse_mib);
  for (const double gap : gaps) {
    if (gap != gap_before) {
      miss = one_gap_miss(gap, mib_per_gap_iter, footprint_mib, l2_reuse_mib);
      gap_before = gap;
    }
    sum += miss;
  }
  return sum / static_cast<double>(gaps.size());
}

// Fraction in [0, 1] of a CTA's operand bytes that come from DRAM in a plan whose panel reuse gaps
// are known (Stream-K: CTAs walk K out of step): a slice is fetched again from DRAM unless it
// survives in L2 what every busy CTA loads in the gap, lag_scale x gap k-tiles of
// cta_operand_bytes_per_iter each. A and B weighted by their rows.
inline double gap_dram_fraction(const Plan& p, double busy_ctas, const PanelLag& lag,
                                double lag_scale, double l2_reuse_mib) {
  const double mib_per_gap_iter =
      lag_scale * busy_ctas * cta_operand_bytes_per_iter(p.tile, p.cluster) / kBytesPerMiB;
  const double footprint_mib = unique_operand_bytes(p) / kBytesPerMiB;
  const double a_rows = cta_a_rows(p.tile, p.cluster);
  const double b_rows = cta_b_rows(p.tile, p.cluster);
  const double a_miss = gap_miss(lag.a_gaps, mib_per_gap_iter, footprint_mib, l2_reuse_mib);
  const double b_miss = gap_miss(lag.b_gaps, mib_per_gap_iter, footprint_mib, l2_reuse_mib);
  return (a_rows * a_miss + b_rows * b_miss) / (a_rows + b_rows);
}

// Reuse distance in MiB of a panel slice that tiles of successive waves load again: the whole
// problem's A+B (footprint rule, `wave_reuse_scale` 0), or, when > 0, that scale x
// `wave_panels_mib`, the full-K panels of the tile rows and columns in flight (working_set_mib:
// what one wave loads between two uses of the slice), at most the footprint.
inline double in_step_reuse_mib(const Plan& p, double wave_panels_mib, double wave_reuse_scale) {
  const double footprint_mib = unique_operand_bytes(p) / kBytesPerMiB;
  if (wave_reuse_scale <= 0) return footprint_mib;
  return std::min(footprint_mib, wave_reuse_scale * wave_panels_mib);
}

// Fraction in [0, 1] of a CTA's operand bytes that come from DRAM while `busy_ctas` CTAs run
// segments of `rows` x `cols` distinct (plan) tile rows and columns, for an L2 that keeps
// `l2_reuse_mib` of operand panels for reuse (working-set rule):
// - a wave of CTAs that walk K in step fetches each panel slice once per k step: the distinct
//   A and B rows in flight over the rows all CTAs load (`in_step`); when the slices survive
//   until the next wave loads them again the whole run fetches each byte once
//   (compulsory_fraction); between the two by capacity_miss of the reuse distance
//   (in_step_reuse_mib);
// - CTAs scattered over the tile space (rows x cols much more than busy tiles, Stream-K) reuse a
//   panel only if L2 keeps it: their share of the panels' working set misses by capacity_miss.
inline double working_set_dram_fraction(const Plan& p, double busy_ctas, int64_t rows, int64_t cols,
                                        double l2_reuse_mib, double wave_reuse_scale = 0.0) {
  rows = std::max<int64_t>(1, rows);
  cols = std::max<int64_t>(1, cols);
  const double busy = std::max(1.0, busy_ctas);
  const double cta_rows = cta_operand_rows(p.tile, p.cluster);
  const double distinct_rows =
      static_cast<double>(rows * p.cluster.m * p.tile.m + cols * p.cluster.n * p.tile.n);
  const double in_step = std::min(1.0, distinct_rows / (busy * cta_rows));
  const double once = compulsory_fraction(p);
  const double panels_mib = working_set_mib(p, rows, cols);
  const double reuse_miss =
      capacity_miss(in_step_reuse_mib(p, panels_mib, wave_reuse_scale), l2_reuse_mib);
  const double base = once + (std::max(once, in_step) - once) * reuse_miss;
  const double busy_tiles = busy / static_cast<double>(p.cluster.m * p.cluster.n);
  const double scatter_miss =
      capacity_miss(scattered_share(rows, cols, busy_tiles) * panels_mib, l2_reuse_mib);
  return base + (1.0 - base) * scatter_miss;
}

}  // namespace lw::traffic
