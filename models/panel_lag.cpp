// Panel reuse gaps: walks every CTA of a Stream-K plan, takes each segment's phase and, per operand
// panel, the phase distance to the segment of another tile that fetched its slices last.
#include "models/panel_lag.hpp"

#include <algorithm>
#include <limits>

#include "sim/decomp/walk.hpp"

namespace lw {

namespace {

// The sort key's phase bound: phases are clamped to +-kTopPhase k-tiles (only the order of phases
// that far apart could change, and their gaps are far beyond any L2 either way). The counted path
// takes phases within it only, so it also stores them in 32 bits.
constexpr int64_t kTopPhase = std::numeric_limits<int32_t>::max();

// kFirstFetch as a whole number of k-tiles (the counted path's gaps are integers).
constexpr int64_t kFirstFetchKtiles = -1;
static_assert(static_cast<double>(kFirstFetchKtiles) == kFirstFetch);

// The sort key: the panel in the high 32 bits, the phase counted down from the top of the low 32.
uint64_t order_key(int64_t panel, int64_t phase) {
  return (static_cast<uint64_t>(panel) << 32) |
         static_cast<uint32_t>(kTopPhase - std::clamp(phase, -kTopPhase, kTopPhase));
}

uint64_t panel_of(const PanelPlace& s) { return s.order >> 32; }

int64_t segment_ktiles(const PanelSegment& s) { return s.k_end - s.k_begin; }

bool share_a_k(const PanelSegment& x, const PanelSegment& y) {
  return x.tile != y.tile && x.k_begin < y.k_end && y.k_begin < x.k_end;
}

// The order of places in an operand's panels: panel, then phase from high (fetches first) to low,
// then tile.
bool panel_order(const PanelPlace& x, const PanelPlace& y) {
  return x.order < y.order || (x.order == y.order && x.across < y.across);
}

// The phase of an item counted down from the top (PanelItem::order's high half).
int64_t phase_down(const PanelItem& x) { return static_cast<int64_t>(x.order >> 32); }

uint32_t panel_index(Operand op, const PanelSegment& s) { return op == Operand::A ? s.row : s.col; }
uint32_t across_index(Operand op, const PanelSegment& s) {
  return op == Operand::A ? s.col : s.row;
}

// Segment `index`'s place in operand `op`'s panels.
PanelPlace place_of(Operand op, const PanelSegment& s, uint32_t index) {
  return {order_key(panel_index(op, s), s.phase), across_index(op, s), index};
}

// Its item (phases and k-tiles within kTopPhase).
PanelItem item_of(Operand op, const PanelSegment& s) {
  const auto down = static_cast<uint64_t>(kTopPhase - s.phase);
  return {down << 32 | across_index(op, s), static_cast<int32_t>(s.k_begin),
          static_cast<int32_t>(s.k_end)};
}

// Bucket counts at [key + 1] into bucket starts (start[key]: the key's first slot).
void prefix_sums(std::vector<size_t>& start) {
  for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
}

// `v` sorted by panel_order: bucketed by panel (a counting sort, linear), each panel's run sorted
// on its own (short runs).
void sort_by_panel(std::vector<PanelPlace>& v, PanelLagScratch& scratch) {
  uint64_t panels = 0;
  for (const auto& s : v) panels = std::max(panels, panel_of(s) + 1);
  std::vector<size_t>& start = scratch.panel_start;
  start.assign(static_cast<size_t>(panels) + 1, 0);
  for (const auto& s : v) ++start[static_cast<size_t>(panel_of(s)) + 1];
  prefix_sums(start);
  scratch.sorted.resize(v.size());
  for (const auto& s : v) scratch.sorted[start[static_cast<size_t>(panel_of(s))]++] = s;
  v.swap(scratch.sorted);  // start[i] is now the end of panel i's run
  size_t begin = 0;
  for (const size_t end : start) {
    std::sort(v.begin() + static_cast<std::ptrdiff_t>(begin),
              v.begin() + static_cast<std::ptrdiff_t>(end), panel_order);
    begin = end;
  }
}

// Items [begin, end) of one panel, sorted by phase, put in `order` by insertion (only items of
// one phase move, past each other); false if two have equal keys.
bool insert_across(std::vector<PanelItem>& v, size_t begin, size_t end) {
  for (size_t i = begin + 1; i < end; ++i) {
    if (v[i - 1].order < v[i].order) continue;
    const PanelItem x = v[i];
    size_t j = i;
    for (; j > begin && x.order < v[j - 1].order; --j) v[j] = v[j - 1];
    if (j == i || (j > begin && v[j - 1].order == x.order)) return false;  // x equals v[j - 1]
    v[j] = x;
  }
  return true;
}

// Each segment's gap to the nearest earlier fetcher of its panel, into scratch.gaps (`places`: one
// operand's, in panel order).
void set_gaps(const std::vector<PanelPlace>& places, PanelLagScratch& scratch) {
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

// The gap of item i of a panel whose items start at `begin` (set_gaps on items): its phase
// distance to the nearest of the kPanelLagSearch items before it that is of another tile (another
// `across`) and covers a common k.
int64_t item_gap(const std::vector<PanelItem>& items, size_t begin, size_t i) {
  const PanelItem& s = items[i];
  const size_t search = static_cast<size_t>(kPanelLagSearch);
  const size_t lowest = i - begin > search ? i - search : begin;
  for (size_t j = i; j-- > lowest;) {
    const PanelItem& e = items[j];
    if (e.across() != s.across() && s.k_begin < e.k_end && e.k_begin < s.k_end) {
      return phase_down(s) - phase_down(e);
    }
  }
  return kFirstFetchKtiles;
}

// The (j + 1/2) / kGapQuantiles k-tile quantile of the gaps: the smallest gap whose segments and
// the lower gaps' hold more than that many k-tiles (the largest gap if none does).
double quantile_at(int j, double total_ktiles) {
  return (static_cast<double>(j) + 0.5) / kGapQuantiles * total_ktiles;
}

// The quantiles of gaps counted per value (ktiles[gap + 1]: k-tiles of that gap, `max_gap` the
// largest gap with any, `total` their sum; whole numbers far below 2^53, so exact as doubles): the
// smallest gap whose counter and those below it hold more than the quantile's k-tiles, else
// max_gap. Counters past max_gap + 1 are not read.
GapQuantiles quantiles_of_counts(const std::vector<int64_t>& ktiles, int64_t max_gap,
                                 int64_t total) {
  GapQuantiles q{};
  size_t g = 0;       // gap + 1
  int64_t below = 0;  // k-tiles of the counters before g
  const auto last = static_cast<size_t>(max_gap - kFirstFetchKtiles);
  for (int j = 0; j < kGapQuantiles; ++j) {
    const double at = quantile_at(j, static_cast<double>(total));
    while (g < last && static_cast<double>(below + ktiles[g]) <= at) {
      below += ktiles[g];
      ++g;
    }
    // An empty gap value is never where the scan stops unless it is the last (then max_gap's
    // segments are there: the largest gap).
    q[static_cast<size_t>(j)] = static_cast<double>(g) + kFirstFetch;
  }
  return q;
}

// items_by_counting() of operand `op` (its panels' bucket starts `start`).
template <Operand op>
bool place_items(std::vector<size_t>& start, PanelLagScratch& scratch) {
  const std::vector<PanelSegment>& segments = scratch.segments;
  scratch.items.resize(segments.size());
  for (const uint32_t i : scratch.by_phase) {
    const PanelSegment& s = segments[i];
    scratch.items[start[panel_index(op, s)]++] = item_of(op, s);
  }
  size_t begin = 0;  // start[p] is now the end of panel p's run
  for (const size_t end : start) {
    if (!insert_across(scratch.items, begin, end)) return false;
    begin = end;
  }
  return true;
}

}  // namespace

namespace panel_lag_detail {

void places_by_sorting(Operand op, PanelLagScratch& scratch) {
  const std::vector<PanelSegment>& segments = scratch.segments;
  scratch.places.resize(segments.size());
  for (size_t i = 0; i < segments.size(); ++i) {
    scratch.places[i] = place_of(op, segments[i], static_cast<uint32_t>(i));
  }
  sort_by_panel(scratch.places, scratch);
}

bool set_phase_order(PanelLagScratch& scratch) {
  const std::vector<PanelSegment>& segments = scratch.segments;
  const int64_t span = scratch.max_phase - scratch.min_phase + 1;
  const auto n = static_cast<int64_t>(segments.size());
  if (n == 0 || scratch.min_phase < -kTopPhase || scratch.max_phase > kTopPhase ||
      span > kCountedPhasesPerSegment * n) {
    return false;
  }
  const int64_t top = scratch.max_phase;
  auto down = [top](const PanelSegment& s) { return static_cast<size_t>(top - s.phase); };
  std::vector<size_t>& phase = scratch.phase_start;
  std::vector<size_t>& row = scratch.row_start;
  std::vector<size_t>& col = scratch.col_start;
  phase.assign(static_cast<size_t>(span) + 1, 0);
  row.assign(size_t{scratch.rows} + 1, 0);
  col.assign(size_t{scratch.cols} + 1, 0);
  for (const PanelSegment& s : segments) {  // counts at [key + 1]
    ++phase[down(s) + 1];
    ++row[size_t{s.row} + 1];
    ++col[size_t{s.col} + 1];
  }
  for (std::vector<size_t>* start : {&phase, &row, &col}) prefix_sums(*start);
  scratch.by_phase.resize(segments.size());
  for (size_t i = 0; i < segments.size(); ++i) {
    scratch.by_phase[phase[down(segments[i])]++] = static_cast<uint32_t>(i);
  }
  return true;
}

bool items_by_counting(Operand op, PanelLagScratch& scratch) {
  return op == Operand::A ? place_items<Operand::A>(scratch.row_start, scratch)
                          : place_items<Operand::B>(scratch.col_start, scratch);
}

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

// The same quantiles from the k-tiles per gap value (gaps are whole k-tiles or kFirstFetch): one
// pass and a scan of `max_gap` + 2 counters instead of a sort.
GapQuantiles quantiles_by_counting(int64_t max_gap, PanelLagScratch& scratch) {
  std::vector<int64_t>& ktiles = scratch.ktiles_by_gap;  // [gap + 1]: k-tiles of that gap
  ktiles.assign(static_cast<size_t>(max_gap - kFirstFetchKtiles) + 1, 0);
  int64_t total = 0;
  for (size_t i = 0; i < scratch.segments.size(); ++i) {
    const int64_t n = segment_ktiles(scratch.segments[i]);
    ktiles[static_cast<size_t>(scratch.gaps[i] - kFirstFetch)] += n;
    total += n;
  }
  if (scratch.segments.empty()) return {};
  return quantiles_of_counts(ktiles, max_gap, total);
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

// One operand's gap quantiles by comparisons: each segment's gap kept, their quantiles taken.
GapQuantiles sorted_gaps(Operand op, PanelLagScratch& scratch) {
  panel_lag_detail::places_by_sorting(op, scratch);
  set_gaps(scratch.places, scratch);
  return quantiles(scratch);
}

// The same from scratch.items (items_by_counting() true, `ends` its panels' ends): each item's gap
// counted per value as it is found. The gaps lie in [kFirstFetch, top_gap] (an earlier item's phase
// is not lower), so the counters are sized by the phases' span.
GapQuantiles counted_gaps(const std::vector<size_t>& ends, PanelLagScratch& scratch) {
  std::vector<int64_t>& ktiles = scratch.ktiles_by_gap;  // [gap + 1]: k-tiles of that gap
  const int64_t top_gap = scratch.max_phase - scratch.min_phase;
  ktiles.assign(static_cast<size_t>(top_gap - kFirstFetchKtiles) + 1, 0);
  const std::vector<PanelItem>& items = scratch.items;
  int64_t max_gap = kFirstFetchKtiles;
  int64_t total = 0;
  size_t begin = 0;  // of the panel at hand
  for (const size_t end : ends) {
    for (size_t i = begin; i < end; ++i) {
      const int64_t gap = item_gap(items, begin, i);
      const int64_t n = items[i].k_end - items[i].k_begin;
      ktiles[static_cast<size_t>(gap - kFirstFetchKtiles)] += n;
      total += n;
      max_gap = std::max(max_gap, gap);
    }
    begin = end;
  }
  return quantiles_of_counts(ktiles, max_gap, total);
}

// One operand's gap quantiles (`counted`: scratch.by_phase is set), counted where
// items_by_counting() takes them; scratch.counted false if it does not.
GapQuantiles operand_gaps(Operand op, bool counted, PanelLagScratch& scratch) {
  if (counted && panel_lag_detail::items_by_counting(op, scratch)) {
    return counted_gaps(op == Operand::A ? scratch.row_start : scratch.col_start, scratch);
  }
  scratch.counted = false;
  return sorted_gaps(op, scratch);
}

// Every MAC segment of the launch with its phase into scratch.segments, in walk order, the phases'
// range and the panels. The segment indices and tile coordinates are taken to fit in 32 bits, as
// order_key takes the panels.
void collect_segments(const Plan& p, PanelLagScratch& scratch) {
  std::vector<PanelSegment>& segments = scratch.segments;
  segments.clear();
  // Kept here while walking (scratch's fields could alias the segments written).
  int64_t min_phase = std::numeric_limits<int64_t>::max();
  int64_t max_phase = std::numeric_limits<int64_t>::min();
  uint32_t rows = 0, cols = 0;
  for (int64_t cta = 0; cta < p.grid; ++cta) {
    CtaWalk w;
    walk_begin(p, cta, w);
    Segment s;
    int64_t ran = 0;  // k-tiles this CTA ran before the segment
    while (walk_next(p, w, s)) {
      const int64_t phase = s.k_begin - ran;
      const auto row = static_cast<uint32_t>(tile_coord_m(p, s.tile));
      const auto col = static_cast<uint32_t>(tile_coord_n(p, s.tile));
      segments.push_back({s.tile, s.k_begin, s.k_end, phase, row, col});
      min_phase = std::min(min_phase, phase);
      max_phase = std::max(max_phase, phase);
      rows = std::max(rows, row + 1);
      cols = std::max(cols, col + 1);
      ran += segment_iters(s);
    }
  }
  scratch.min_phase = min_phase;
  scratch.max_phase = max_phase;
  scratch.rows = rows;
  scratch.cols = cols;
}

}  // namespace

bool has_panel_lag(const Plan& p) {
  return p.split_mode == SplitMode::EvenStream || p.split_mode == SplitMode::CutlassStream;
}

namespace panel_lag_detail {

PanelLag panel_lag_by_sorting(const Plan& p, PanelLagScratch& scratch) {
  if (!has_panel_lag(p)) return {};
  collect_segments(p, scratch);
  scratch.counted = false;
  PanelLag lag;
  lag.known = true;
  lag.a_gaps = sorted_gaps(Operand::A, scratch);
  lag.b_gaps = sorted_gaps(Operand::B, scratch);
  return lag;
}

}  // namespace panel_lag_detail

PanelLag panel_lag(const Plan& p, PanelLagScratch& scratch) {
  if (!has_panel_lag(p)) return {};
  collect_segments(p, scratch);
  // Counted items keep phases and k-ranges in 32 bits.
  const bool counted = p.k_tiles <= kTopPhase && panel_lag_detail::set_phase_order(scratch);
  scratch.counted = counted;
  PanelLag lag;
  lag.known = true;
  lag.a_gaps = operand_gaps(Operand::A, counted, scratch);
  lag.b_gaps = operand_gaps(Operand::B, counted, scratch);
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
