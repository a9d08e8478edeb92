// Panel reuse gaps of a plan: for each segment, how many k-tiles after another tile's segment
// fetched the same operand panel slices (an A row panel, a B column panel) it fetches them again.
// Host-only; read by cost models through the simulator (CostContext::panel_lag).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/decomp/plan.hpp"

namespace lw {

// A segment's phase is its k_begin minus the k-tiles its CTA ran before it: CTAs that start
// together and run at one rate are at k = phase + t (t in k-tiles), so the segment reaches slice k
// at t = k - phase. Of the segments of other tiles on the same panel that cover a common k, the
// one with the nearest higher phase fetched the slices last before it: the gap is the phase
// difference (k-tiles of the whole machine's loads in between). A segment with none fetches them
// first (gap kFirstFetch).
constexpr double kFirstFetch = -1.0;

// The gaps are summarised, per operand, by this many quantiles of the k-tiles (the gap at k-tile
// quantile (i + 1/2) / kGapQuantiles), so a model can take the mean of any function of the gap.
constexpr int kGapQuantiles = 8;
using GapQuantiles = std::array<double, kGapQuantiles>;

struct PanelLag {
  bool known = false;  // false: the plan's tiles start in step (see panel_lag())
  GapQuantiles a_gaps{};
  GapQuantiles b_gaps{};
};

// One segment of the plan as the gap computation sees it (sorted by `order`: panel ascending,
// then phase descending, packed in one key so the sort compares one integer).
struct PanelSegment {
  uint64_t order = 0;
  int64_t tile = 0;
  int64_t k_begin = 0, k_end = 0;
  int64_t phase = 0;
  double gap = kFirstFetch;
};

// Reusable buffers (a sweep computes the gaps of many plans without allocating).
struct PanelLagScratch {
  std::vector<PanelSegment> a, b, sorted;
  std::vector<std::size_t> panel_start;
  std::vector<std::pair<double, double>> gaps;  // (gap, k-tiles)
};

// Gaps of plans whose persistent CTAs walk Stream-K ranges (SplitMode::EvenStream,
// CutlassStream); every other plan's tiles start at phase 0 or at their split's k_begin alike, in
// waves the working-set rule of the cost model covers: `known` is false for them.
PanelLag panel_lag(const Plan& p, PanelLagScratch& scratch);

// The segment that fetched a slice last is searched this many places up in phase order (the
// nearest of another tile with a common k is taken).
constexpr int64_t kPanelLagSearch = 8;

}  // namespace lw
