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

// One segment of the plan as the gap computation sees it (`row`, `col`: its tile's coordinates,
// the A and B panels it is in).
struct PanelSegment {
  int64_t tile = 0;
  int64_t k_begin = 0, k_end = 0;
  int64_t phase = 0;
  uint32_t row = 0, col = 0;
};

// A segment's place in one operand's panels (sorted by `order`: panel ascending, then phase
// descending, packed in one key so the sort compares one integer; then by `across`, the tile's
// coordinate across the panel, which orders a panel's tiles as their indices do). Small, so the
// sort moves 16 bytes per swap; `segment` indexes PanelLagScratch::segments.
struct PanelPlace {
  uint64_t order = 0;
  uint32_t across = 0;
  uint32_t segment = 0;
};

// A segment's place in one panel as the counted gap search reads it: `order` is PanelPlace's
// order within the panel in one integer (the phase counted down from the top in the high 32 bits,
// as in PanelPlace::order, which the counted path takes only for phases that fit; `across` in the
// low 32), so two items' tiles differ exactly where the low halves do; with the segment's k-range.
struct PanelItem {
  uint64_t order = 0;
  int32_t k_begin = 0, k_end = 0;
  uint32_t across() const { return static_cast<uint32_t>(order); }
};

// Reusable buffers (a sweep computes the gaps of many plans without allocating).
struct PanelLagScratch {
  std::vector<PanelSegment> segments;    // in walk order (CTA by CTA)
  int64_t min_phase = 0, max_phase = 0;  // over `segments`
  uint32_t rows = 0, cols = 0;           // the A and B panels: 1 + the largest row, column
  bool counted = false;  // the last panel_lag() ordered both operands by counting (tests read it)
  std::vector<uint32_t> by_phase;          // segment indices, phase descending (ties in walk order)
  std::vector<PanelItem> items;            // counted: the operand at hand's places, panel by panel
  std::vector<PanelPlace> places, sorted;  // by comparisons: the operand's places, sort buffer
  std::vector<double> gaps;                // by comparisons: per segment, of the operand at hand
  std::vector<std::size_t> panel_start;    // by comparisons: the panels' bucket starts
  // Counted: bucket starts by phase and by row and column (the A and B panels)
  std::vector<std::size_t> phase_start, row_start, col_start;
  std::vector<std::pair<double, double>> gap_ktiles;  // (gap, k-tiles)
  std::vector<int64_t> ktiles_by_gap;  // [gap + 1]: k-tiles of the segments with that gap
};

// Gaps of plans whose persistent CTAs walk Stream-K ranges (SplitMode::EvenStream,
// CutlassStream); every other plan's tiles start at phase 0 or at their split's k_begin alike, in
// waves the working-set rule of the cost model covers: `known` is false for them.
PanelLag panel_lag(const Plan& p, PanelLagScratch& scratch);
bool has_panel_lag(const Plan& p);  // the plan's split mode is a Stream-K one (`known` gaps)

// The gaps are a property of the plan alone: this many plans' gaps are kept (`compare` simulates
// Stream-K and its two-tile hybrid on one shape, often the same plan; the fit simulates its
// training plans again for every model evaluation).
constexpr size_t kPanelLagCachePlans = 4;

// panel_lag() of the last kPanelLagCachePlans distinct plans with gaps asked for (oldest replaced
// first; keyed by same_plan()).
class PanelLagCache {
 public:
  const PanelLag& of(const Plan& p);

 private:
  struct Entry {
    bool used = false;
    Plan plan;
    PanelLag lag;
  };
  std::array<Entry, kPanelLagCachePlans> entries_{};
  size_t next_ = 0;   // the entry replaced next
  PanelLag unknown_;  // of every plan without gaps
  PanelLagScratch scratch_;
};

// The segment that fetched a slice last is searched this many places up in phase order (the
// nearest of another tile with a common k is taken).
constexpr int64_t kPanelLagSearch = 8;

// Phases are ordered by counting while they span at most this many values per segment (else by
// comparisons).
constexpr int64_t kCountedPhasesPerSegment = 8;

// The A panels are the tile rows (a place's `across`: the tile's column), the B panels the columns.
enum class Operand { A, B };

// The two ways panel_lag() takes one operand's gaps: by comparisons (places sorted, each
// segment's gap kept, the quantiles of those) and by counting (places bucketed by phase and panel,
// the gaps counted per value as they are found); both must agree wherever counting applies (no
// two places with equal keys, when their order is the sort's choice; phases in a span of
// kCountedPhasesPerSegment values per segment). So must the two ways of taking quantiles of kept
// gaps wherever counting applies (every gap a whole number of k-tiles in [kFirstFetch, max_gap]).
// Exposed for the tests that pin that.
namespace panel_lag_detail {
// panel_lag() by comparisons alone (the reference of the counted path).
PanelLag panel_lag_by_sorting(const Plan& p, PanelLagScratch& scratch);
// Walk-order places into scratch.places, bucketed by panel, each panel's run sorted.
void places_by_sorting(Operand op, PanelLagScratch& scratch);
// scratch.by_phase by a counting sort over the phases, and the row and column bucket starts;
// false (nothing set) when the phases span more than kCountedPhasesPerSegment values per segment
// or exceed 32 bits.
bool set_phase_order(PanelLagScratch& scratch);
// From scratch.by_phase: scratch.items bucketed by panel (the operand's bucket starts, row_start
// or col_start, then hold the end of each panel's run), equal phases put in `across` order by
// insertion. False (scratch.items then unspecified) when two places have equal keys.
bool items_by_counting(Operand op, PanelLagScratch& scratch);
GapQuantiles quantiles_by_sorting(PanelLagScratch& scratch);
GapQuantiles quantiles_by_counting(int64_t max_gap, PanelLagScratch& scratch);
}  // namespace panel_lag_detail

}  // namespace lw
