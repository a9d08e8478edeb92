// Work-unit k-ranges of a plan's split region: which contiguous range of (tile, k) iterations each
// unit owns, for fixed splits, the paper's even Stream-K split and CUTLASS SM90's grouped split.
#pragma once
#include <cstdint>

#include "sim/decomp/plan.hpp"

namespace lw {

// A unit's k-range in its group's local iteration space: local tile j of group g spans
// iterations [j*Kt, (j+1)*Kt) and is global tile j*groups + g.
struct UnitRange {
  int64_t group = 0;
  int64_t begin = 0;
  int64_t end = 0;
};

// Iterations, tiles and units stay below 2^31 (make_geometry refuses more), so the functions below
// divide in 32 bits: the kernels walk the plan on their critical path, and a 64-bit division is a
// long subroutine of SASS in every kernel that inlines it.
LW_HD uint32_t u32(int64_t x) { return static_cast<uint32_t>(x); }

// Paper Stream-K: `units` contiguous ranges over `total` iterations, the first total%units one
// longer.
LW_HD int64_t even_unit_begin(int64_t total, int64_t units, int64_t u) {
  const uint32_t q = u32(total) / u32(units);
  const uint32_t big = u32(total) - q * u32(units);
  return static_cast<int64_t>(u) * q + (u32(u) < big ? u32(u) : big);
}

// Unit (of the even split) that owns iteration `it`.
LW_HD int64_t even_unit_of(int64_t total, int64_t units, int64_t it) {
  const uint32_t q = u32(total) / u32(units);
  const uint32_t big = u32(total) - q * u32(units);
  const uint32_t big_span = big * (q + 1);
  if (u32(it) < big_span) return u32(it) / (q + 1);
  return big + (u32(it) - big_span) / q;
}

// CUTLASS boundary snapping: a boundary closer than min_piece to a tile edge moves onto that edge,
// so no split piece is shorter than min_piece k-tiles. Monotone, so neighbours stay consistent.
LW_HD int64_t snap_boundary(int64_t b, int64_t k_tiles, int64_t min_piece) {
  const int64_t r = u32(b) % u32(k_tiles);
  if (r < min_piece) return b - r;
  if (r > k_tiles - min_piece) return b + (k_tiles - r);
  return b;
}

// Tiles owned by a CUTLASS stream-K group.
LW_HD int64_t cutlass_group_tiles(const Plan& p, int64_t group) {
  return u32(p.split_tiles) / u32(p.groups) + (group < p.big_groups ? 1 : 0);
}

LW_HD UnitRange unit_range(const Plan& p, int64_t unit) {
  UnitRange r;
  const int64_t kt = p.k_tiles;
  switch (p.split_mode) {
    case SplitMode::FixedSplit: {  // in 32 bits: units <= tiles x Kt < 2^31 (make_geometry)
      const uint32_t u = u32(unit), tiles = u32(p.split_tiles), kt32 = u32(kt);
      const uint32_t splits = u32(p.splits);
      const uint32_t split = u / tiles, tile = u - split * tiles;
      const uint32_t per = kt32 / splits, big = kt32 - per * splits;
      r.begin = static_cast<int64_t>(tile) * kt + per * split + (split < big ? split : big);
      r.end = r.begin + per + (split < big ? 1 : 0);
      break;
    }
    case SplitMode::EvenStream: {
      const int64_t total = p.split_tiles * kt;
      r.begin = even_unit_begin(total, p.split_units, unit);
      r.end = even_unit_begin(total, p.split_units, unit + 1);
      break;
    }
    case SplitMode::CutlassStream: {
      const uint32_t i = u32(unit) / u32(p.groups);
      r.group = u32(unit) - i * u32(p.groups);
      const uint32_t units_per_group = u32(p.split_units) / u32(p.groups);
      const uint32_t k_in_group = u32(cutlass_group_tiles(p, r.group) * kt);
      const uint32_t per = k_in_group / units_per_group;
      const uint32_t big = k_in_group - per * units_per_group;
      const int64_t begin = per * i + min64(i, big);
      const int64_t end = begin + per + (i < big ? 1 : 0);
      r.begin = snap_boundary(begin, kt, p.min_piece);
      r.end = snap_boundary(end, kt, p.min_piece);
      break;
    }
    case SplitMode::None:
      break;
  }
  return r;
}

}  // namespace lw
