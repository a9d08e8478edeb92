// The walk: for CTA c, the ordered segments (tile, k_begin, k_end) it executes, each with its fixup
// role, workspace slot and flag wait/signal. The kernels and the simulator both call walk_next().
#pragma once
#include <cstdint>

#include "sim/decomp/units.hpp"

namespace lw {

enum class Role : int32_t {
  Whole = 0,     // whole k-range of the tile: MAC loop + epilogue, no fixup
  StorePartial,  // non-owner: store fp32 partial to `slot`, then flag[slot] += signal
  Accumulate,    // non-owner: wait flag[slot] >= wait_value, add partial into `slot`, signal
  Final,         // owner: wait for peers, load `load_slots` slots from `slot` on, epilogue
};

struct Segment {
  int64_t work_id = 0;  // work unit (split unit or DP tile id) this segment belongs to
  int64_t tile = 0;     // linear tile index (see tile_coord_m / tile_coord_n)
  int64_t k_begin = 0;  // in k-tiles, within the tile
  int64_t k_end = 0;
  Role role = Role::Whole;
  int64_t slot = -1;  // workspace slot written/accumulated (or first slot loaded by Final)
  int64_t load_slots =
      0;  // partial tiles read: Final (Slots) = peers, in-place Final/Accumulate = 1
  int64_t wait_value =
      0;               // in-place: flag[slot] >= wait_value; Slots Final: each flag >= wait_value
  int64_t signal = 0;  // added to flag[slot] after the store/add (0 = none)
  bool reduction_only = false;  // separate-reduction launch: no MAC iterations
};

LW_HD int64_t segment_iters(const Segment& s) { return s.k_end - s.k_begin; }

// Cursor of one CTA through the plan.
struct CtaWalk {
  int64_t next_work = 0;  // next work id to fetch
  int64_t unit = -1;      // split unit being walked, -1 if none
  UnitRange range;        // remaining part of that unit's range
};

LW_HD void walk_begin(const Plan& /*p*/, int64_t cta, CtaWalk& w) {
  w.next_work = cta;
  w.unit = -1;
}

namespace detail {

// Fills role, slot, load_slots, wait_value, signal for a split-region segment.
LW_HD void classify(const Plan& p, int64_t unit, Segment& s) {
  const int64_t kt = p.k_tiles;
  const int64_t len = s.k_end - s.k_begin;
  if (s.k_begin == 0 && s.k_end == kt) {
    s.role = Role::Whole;
    return;
  }
  const bool owner = p.owner == FixupOwner::LastK ? s.k_end == kt : s.k_begin == 0;
  if (p.storage == FixupStorage::Slots) {
    if (p.split_mode == SplitMode::FixedSplit) {
      const int64_t split = u32(unit) / u32(p.split_tiles);
      const int64_t peers = p.separate_reduction ? p.splits : p.splits - 1;
      if (owner && !p.separate_reduction) {
        s.role = Role::Final;
        s.slot = s.tile * peers;
        s.load_slots = peers;
        s.wait_value = 1;
      } else {
        s.role = Role::StorePartial;
        s.slot = s.tile * peers + split;
        s.signal = 1;
      }
      return;
    }
    // EvenStream with a first-k owner: non-owner pieces are their unit's first segment, stored to
    // the unit's own slot; the owner loads the slots of the units that follow it in k order.
    const int64_t total = p.split_tiles * kt;
    if (owner) {
      const int64_t last_unit = even_unit_of(total, p.split_units, (s.tile + 1) * kt - 1);
      s.role = Role::Final;
      s.slot = unit + 1;
      s.load_slots = last_unit - unit;
      s.wait_value = 1;
    } else {
      s.role = Role::StorePartial;
      s.slot = unit;
      s.signal = 1;
    }
    return;
  }
  // In place: one slot per split tile, flag counts k-tiles accumulated so far.
  s.slot = s.tile;
  // k-tiles of the owner's own piece (only non-zero for a first-k owner).
  int64_t owner_len = 0;
  int64_t first_peer_k = 0;  // k_begin of the non-owner that initialises the slot
  if (p.owner == FixupOwner::FirstK) {
    const int64_t total = p.split_tiles * kt;  // first-k ownership is only planned for EvenStream
    const int64_t tile_begin = s.tile * kt;
    const int64_t owner_unit = even_unit_of(total, p.split_units, tile_begin);
    owner_len =
        min64(even_unit_begin(total, p.split_units, owner_unit + 1), tile_begin + kt) - tile_begin;
    first_peer_k = owner_len;
  }
  if (owner) {
    s.role = Role::Final;
    s.load_slots = 1;
    s.wait_value = kt - len;
    return;
  }
  s.signal = len;
  if (s.k_begin == first_peer_k) {
    s.role = Role::StorePartial;
    return;
  }
  s.role = Role::Accumulate;
  s.load_slots = 1;
  s.wait_value = p.storage == FixupStorage::InPlaceTurnstile ? s.k_begin - owner_len : 1;
}

// The segment of work id `id` past the split region: a whole tile.
LW_HD void whole_tile_segment(const Plan& p, int64_t id, Segment& s) {
  s = Segment{};
  s.work_id = id;
  s.tile = p.split_tiles + (id - p.split_units);
  s.k_begin = 0;
  s.k_end = p.k_tiles;
  s.role = Role::Whole;
}

}  // namespace detail

// Next segment of this CTA in execution order; false when the CTA has no more work.
LW_HD bool walk_next(const Plan& p, CtaWalk& w, Segment& s) {
  const int64_t kt = p.k_tiles;
  for (;;) {
    if (w.unit >= 0 && w.range.begin < w.range.end) {
      int64_t b, e;
      // Iterations and tiles stay below 2^31 (make_geometry): the divisions run in 32 bits.
      const uint32_t kt32 = u32(kt);
      if (p.walk == WalkOrder::Forward) {
        b = w.range.begin;
        e = min64(w.range.end, (u32(b) / kt32 + 1) * kt);
        w.range.begin = e;
      } else {
        e = w.range.end;
        b = max64(w.range.begin, (u32(e - 1) / kt32) * kt);
        w.range.end = b;
      }
      const int64_t local_tile = u32(b) / kt32;
      s = Segment{};
      s.work_id = w.unit;
      s.tile = local_tile * p.groups + w.range.group;
      s.k_begin = b - local_tile * kt;
      s.k_end = e - local_tile * kt;
      detail::classify(p, w.unit, s);
      return true;
    }
    w.unit = -1;
    if (w.next_work >= p.work_units) return false;
    const int64_t id = w.next_work;
    w.next_work += p.grid;
    if (id < p.split_units) {
      w.unit = id;
      w.range = unit_range(p, id);
      // CUTLASS: a stream-K unit that snapping left with no k-tiles is an invalid work tile,
      // and the kernel's work loop ends there for that CTA.
      if (p.split_mode == SplitMode::CutlassStream && w.range.begin == w.range.end) {
        w.unit = -1;
        w.next_work = p.work_units;
        return false;
      }
      continue;
    }
    detail::whole_tile_segment(p, id, s);
    return true;
  }
}

// walk_next for a plan without a split region (split_units == 0, as every SplitMode::None plan):
// the same segments, without the split-region code, for kernels that only ever run such plans
// (the ping-pong form: a shorter cold path through the code, docs/PERFORMANCE.md).
LW_HD bool walk_next_whole(const Plan& p, CtaWalk& w, Segment& s) {
  if (w.next_work >= p.work_units) return false;
  const int64_t id = w.next_work;
  w.next_work += p.grid;
  detail::whole_tile_segment(p, id, s);
  return true;
}

// walk_next_whole where the caller runs whole tiles only, walk_next otherwise.
template <bool kWholeTiles>
LW_HD bool walk_next_as(const Plan& p, CtaWalk& w, Segment& s) {
  if constexpr (kWholeTiles) {
    return walk_next_whole(p, w, s);
  } else {
    return walk_next(p, w, s);
  }
}

// cluster_reduce plans: the owner of a tile is its last split (FixupOwner::LastK), the cluster's
// last rank; a peer's segment writes the owner's slot `peer` (its split, as classify numbers
// slots).
LW_HD int64_t cluster_reduce_owner(const Plan& p) { return p.splits - 1; }
LW_HD int64_t cluster_reduce_peer(const Plan& p, const Segment& s) {
  return s.slot - s.tile * (p.splits - 1);
}

// The one segment of CTA r of the separate-reduction launch.
LW_HD Segment reduction_segment(const Plan& p, int64_t r) {
  Segment s;
  s.work_id = p.work_units + r;
  s.tile = r;
  s.k_begin = p.k_tiles;
  s.k_end = p.k_tiles;
  s.role = Role::Final;
  s.slot = r * p.splits;
  s.load_slots = p.splits;
  s.wait_value = 1;
  s.reduction_only = true;
  return s;
}

}  // namespace lw
