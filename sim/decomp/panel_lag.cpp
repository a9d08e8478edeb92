// Panel reuse gaps: walks every CTA of a Stream-K plan, takes each segment's phase and, per operand
// panel, the phase distance to the segment of another tile that fetched its slices last.
#include "sim/decomp/panel_lag.hpp"

#include <algorithm>
#include <limits>

#include "sim/decomp/walk.hpp"

namespace lw {

namespace {

// The sort key: the panel in the high 32 bits, the phase counted down from the top of the low 32
// (clamped to +-(2^31 - 1) k-tiles: only the order of phases that far apart could change, and
// their gaps are far beyond any L2 either way).
uint64_t order_key(int64_t panel, int64_t phase) {
  constexpr int64_t kTop = std::numeric_limits<int32_t>::max();
  return (static_cast<uint64_t>(panel) << 32) |
         static_cast<uint32_t>(kTop - std::clamp(phase, -kTop, kTop));
}

uint64_t panel_of(const PanelPlace& s) { return s.order >> 32; }

int64_t segment_ktiles(const PanelSegment& s) { return s.k_end - s.k_begin; }

bool share_a_k(const PanelSegment& x, const PanelSegment& y) {
  return x.tile != y.tile && x.k_begin < y.k_end && y.k_begin < x.k_end;
}

// `v` sorted by panel, then phase from high (fetches first) to low, then tile: bucketed by panel
// (a counting sort, linear), each panel's run sorted on its own (short runs).
void sort_by_panel(std::vector<PanelPlace>& v, PanelLagScratch& scratch) {
  uint64_t panels = 0;
  for (const auto& s : v) panels = std::max(panels, panel_of(s) + 1);
  std::vector<size_t>& start = scratch.panel_start;
  start.assign(static_cast<size_t>(panels) + 1, 0);
  for (const auto& s : v) ++start[static_cast<size_t>(panel_of(s)) + 1];
  for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
  scratch.sorted.resize(v.size());
  for (const auto& s : v) scratch.sorted[start[static_cast<size_t>(panel_of(s))]++] = s;
  v.swap(scratch.sorted);  // start[i] is now the end of panel i's run
  size_t begin = 0;
  for (const size_t end : start) {
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(begin),
              v.begin() + static_cast<std::ptrdiff_t>(end),
              [](const PanelPlace& x, const PanelPlace& y) {
                return x.order < y.order || (x.order == y.order && x.across < y.across);
              });
    begin = end;
  }
}

// Each segment's gap to the nearest earlier fetcher of its panel, into scratch.gaps (`places`: one
// operand's, sorted here).
void set_gaps(std::vector<PanelPlace>& places, PanelLagScratch& scratch) {
  sort_by_panel(places, scratch);
  const std::vector<PanelSegment>& segments = scratch.segments;
  scratch.gaps.resize(segments.size());
  for (size_t i = 0; i < places.size(); ++i) {
    const PanelSegment& s = segments[places[i].segment];
    double& gap = scratch.gaps[places[i].segment];
    gap = kFirstFetch;
    for (size_t step = 1; step <= static_cast<size_t>(kPanelLagSearch) && step <= i; ++step) {
      const PanelPlace& earlier = places[i - step];
      if (panel_of(earlier) != panel_of(places[i])) break;
      const PanelSegment& e = segments[earlier.segment];
      if (!share_a_k(s, e)) continue;
      gap = static_cast<double>(e.phase - s.phase);
      break;
    }
  }
}

// The (j + 1/2) / kGapQuantiles k-tile quantile of the gaps: the smallest gap whose segments and
// the lower gaps' hold more than that many k-tiles (the largest gap if none does).
double quantile_at(int j, double total_ktiles) {
  return (static_cast<double>(j) + 0.5) / kGapQuantiles * total_ktiles;
}

}  // namespace

namespace panel_lag_detail {

// Gap quantiles weighted by the segments' k-tiles, by sorting (gap, k-tiles) pairs.
GapQuantiles quantiles_by_sorting(PanelLagScratch& scratch) {
  std::vector<std::pair<double, double>>& v = scratch.gap_ktiles;  // sorted by gap
  v.clear();
  double total = 0;
  for (size_t i = 0; i < scratch.segments.size(); ++i) {
    v.emplace_back(scratch.gaps[i], static_cast<double>(segment_ktiles(scratch.segments[i])));
    total += v.back().second;
  }
  std::sort(v.begin(), v.end(),
            [](const std::pair<double, double>& x, const std::pair<double, double>& y) {
              return x.first < y.first;
            });
  GapQuantiles q{};
  size_t i = 0;
  double below = 0;  // k-tiles of v[0, i)
  for (int j = 0; j < kGapQuantiles && !v.empty(); ++j) {
    const double at = quantile_at(j, total);
    while (i + 1 < v.size() && below + v[i].second <= at) {
      below += v[i].second;
      ++i;
    }
    q[static_cast<size_t>(j)] = v[i].first;
  }
  return q;
}

// The same quantiles from the k-tiles per gap value (gaps are whole k-tiles or kFirstFetch; the
// k-tile sums are whole numbers far below 2^53, so exact in any order): one pass and a scan of
// `max_gap` + 2 counters instead of a sort.
GapQuantiles quantiles_by_counting(int64_t max_gap, PanelLagScratch& scratch) {
  std::vector<double>& ktiles = scratch.ktiles_by_gap;  // [gap + 1]: k-tiles of that gap
  ktiles.assign(static_cast<size_t>(max_gap) + 2, 0.0);
  double total = 0;
  for (size_t i = 0; i < scratch.segments.size(); ++i) {
    const auto n = static_cast<double>(segment_ktiles(scratch.segments[i]));
    ktiles[static_cast<size_t>(scratch.gaps[i] - kFirstFetch)] += n;
    total += n;
  }
  GapQuantiles q{};
  size_t g = 0;      // gap + 1
  double below = 0;  // k-tiles of the counters before g
  const size_t last = ktiles.size() - 1;
  for (int j = 0; j < kGapQuantiles && !scratch.segments.empty(); ++j) {
    const double at = quantile_at(j, total);
    while (g < last && below + ktiles[g] <= at) {
      below += ktiles[g];
      ++g;
    }
    // An empty gap value is never where the scan stops unless it is the last (then max_gap's
    // segments are there: the largest gap).
    q[static_cast<size_t>(j)] = static_cast<double>(g) + kFirstFetch;
  }
  return q;
}

}  // namespace panel_lag_detail

namespace {

using panel_lag_detail::quantiles_by_counting;
using panel_lag_detail::quantiles_by_sorting;

// Counting pays while the gap range is at most this many times the segments; wider ranges (and
// the negative gaps of phases beyond order_key's clamp) are sorted.
constexpr double kCountedGapsPerSegment = 8;

// Quantiles of scratch.gaps weighted by the segments' k-tiles.
GapQuantiles quantiles(PanelLagScratch& scratch) {
  double min_gap = kFirstFetch, max_gap = kFirstFetch;
  for (const double gap : scratch.gaps) {
    min_gap = std::min(min_gap, gap);
    max_gap = std::max(max_gap, gap);
  }
  const double countable = static_cast<double>(scratch.gaps.size()) * kCountedGapsPerSegment;
  if (min_gap < kFirstFetch || max_gap > countable) return quantiles_by_sorting(scratch);
  return quantiles_by_counting(static_cast<int64_t>(max_gap), scratch);
}

// One operand's gap quantiles (`places`: its panels).
GapQuantiles operand_gaps(std::vector<PanelPlace>& places, PanelLagScratch& scratch) {
  set_gaps(places, scratch);
  return quantiles(scratch);
}

// Every MAC segment of the launch with its phase into scratch.segments, and its places in the A
// panels (tile rows) and B panels (tile columns) into scratch.a and .b, in walk order. The segment
// indices and tile coordinates are taken to fit in 32 bits, as order_key takes the panels.
void collect_segments(const Plan& p, PanelLagScratch& scratch) {
  scratch.segments.clear();
  scratch.a.clear();
  scratch.b.clear();
  for (int64_t cta = 0; cta < p.grid; ++cta) {
    CtaWalk w;
    walk_begin(p, cta, w);
    Segment s;
    int64_t ran = 0;  // k-tiles this CTA ran before the segment
    while (walk_next(p, w, s)) {
      const int64_t phase = s.k_begin - ran;
      const auto index = static_cast<uint32_t>(scratch.segments.size());
      const int64_t row = tile_coord_m(p, s.tile), col = tile_coord_n(p, s.tile);
      scratch.segments.push_back({s.tile, s.k_begin, s.k_end, phase});
      scratch.a.push_back({order_key(row, phase), static_cast<uint32_t>(col), index});
      scratch.b.push_back({order_key(col, phase), static_cast<uint32_t>(row), index});
      ran += segment_iters(s);
    }
  }
}

}  // namespace

bool has_panel_lag(const Plan& p) {
  return p.split_mode == SplitMode::EvenStream || p.split_mode == SplitMode::CutlassStream;
}

PanelLag panel_lag(const Plan& p, PanelLagScratch& scratch) {
  if (!has_panel_lag(p)) return {};
  collect_segments(p, scratch);
  PanelLag lag;
  lag.known = true;
  lag.a_gaps = operand_gaps(scratch.a, scratch);
  lag.b_gaps = operand_gaps(scratch.b, scratch);
  return lag;
}

const PanelLag& PanelLagCache::of(const Plan& p) {
  if (!has_panel_lag(p)) return unknown_;  // not worth an entry
  for (const Entry& e : entries_) {
    if (e.used && same_plan(e.plan, p)) return e.lag;
  }
  Entry& e = entries_[next_];
  next_ = (next_ + 1) % entries_.size();
  e.used = true;
  e.plan = p;
  e.lag = panel_lag(p, scratch_);
  return e.lag;
}

}  // namespace lw
