// A host model of one CTA's stage ring in the wgmma kernel (cuda/kernel/mainloop_wgmma.cuh): the
// producer fills ring positions in walk order as each stage's empty barrier lets it, a fill lands
// whenever the schedule says (TMA loads need not complete in issue order), and consumers wait on
// full barriers by parity, as mbarrier.try_wait.parity does. Checks that every wait a consumer
// passes finds its own k-tile landed, on the rings sim/decomp/kernel_configs.hpp gives the kernels.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/config_list.hpp"

namespace {

// The consumers take alternate k-tiles of a segment (64-row tiles of at most 64 columns) or both
// read every stage, and meet after each segment (the exchange / the fix-up); or, ping-pong, take
// alternate segments, each starting its MAC loop once the partner's previous one ended (`Turns`).
enum class Form { Alternate, EveryConsumer, Pingpong };
constexpr int kConsumers = lw::kWgmmaConsumers;

struct Stage {
  int64_t full_phases = 0;   // full barrier: phases completed (one per landed fill)
  int64_t empty_phases = 0;  // empty barrier: phases completed (one per release of the stage)
  int empty_arrivals = 0;    // arrivals toward the empty barrier's current phase
  int64_t in_flight = -1;    // position whose fill was issued and has not landed
  int64_t landed = -1;       // position whose fill landed last
};

// try_wait.parity(p): true once the phase of parity p has completed, i.e. while the barrier's
// current phase has the other parity.
bool parity_wait_passes(int64_t phases_completed, int64_t parity) {
  return (phases_completed & 1) != parity;
}

struct Consumer {
  size_t segment = 0;
  int64_t it = 0;     // k-tile of the segment
  int64_t pos = 0;    // its ring position
  int prev = -1;      // stage read last, released after the next wait (or at the segment's end)
  bool met = false;   // waiting for the partner at the segment's end
  bool turn = false;  // ping-pong: its turn to multiply the current segment came
};

class RingModel {
 public:
  RingModel(int stages, std::vector<int64_t> iters, Form form)
      : stages_(stages), iters_(std::move(iters)), form_(form), ring_(stages) {
    for (int64_t n : iters_) total_ += n;
  }
  bool done() const { return next_fill_ == total_ && consumers_done() && loading().empty(); }
  bool consumers_done() const {
    for (const Consumer& c : cons_)
      if (c.segment < iters_.size()) return false;
    return true;
  }
  const std::string& violation() const { return violation_; }
  // The stages with a fill in flight, oldest position first.
  std::vector<int> loading() const {
    std::vector<std::pair<int64_t, int>> fills;
    for (int s = 0; s < stages_; ++s)
      if (ring_[s].in_flight >= 0) fills.emplace_back(ring_[s].in_flight, s);
    std::sort(fills.begin(), fills.end());
    std::vector<int> out;
    for (const auto& f : fills) out.push_back(f.second);
    return out;
  }

  // The producer issues the next position's fill once the stage's empty barrier passes.
  bool produce() {
    if (next_fill_ == total_) return false;
    Stage& s = ring_[next_fill_ % stages_];
    if (!parity_wait_passes(s.empty_phases, ((next_fill_ / stages_) & 1) ^ 1)) return false;
    if (s.in_flight >= 0) {
      fail("position " + std::to_string(next_fill_) + " refills a stage still loading");
    }
    s.in_flight = next_fill_++;
    return true;
  }
  // Lands the fill in flight on `stage`.
  bool land(int stage) {
    Stage& s = ring_[stage];
    if (s.in_flight < 0) return false;
    s.landed = s.in_flight;
    s.in_flight = -1;
    ++s.full_phases;
    return true;
  }
  // Consumer g's next move: skip a k-tile that is not its own, wait and read one that is, or end
  // the segment and meet the partner.
  bool consume(int g) {
    Consumer& c = cons_[g];
    if (c.segment >= iters_.size()) return false;
    if (form_ == Form::Pingpong) return take_turn(g, c);
    if (c.met) return meet();
    if (c.it == iters_[c.segment]) {
      release(c);
      c.met = true;
      return true;
    }
    if (form_ == Form::Alternate && c.it % kConsumers != g) return advance(c);
    return read(g, c);
  }

 private:
  // Ping-pong: skip the partner's segment; on its own, wait for its turn (the partner's MAC loop
  // of the segment before ended), read every k-tile, then pass the turn.
  bool take_turn(int g, Consumer& c) {
    if (static_cast<int>(c.segment % kConsumers) != g) {
      c.pos += iters_[c.segment++];
      return true;
    }
    if (!c.turn) {
      if (macs_ended_ < c.segment) return false;
      c.turn = true;
    }
    if (c.it < iters_[c.segment]) return read(g, c);
    release(c);
    macs_ended_ = c.segment + 1;
    ++c.segment;
    c.it = 0;
    c.turn = false;
    return true;
  }
  // Waits on the full barrier of its position's stage; once it passes, checks the fill landed.
  bool read(int g, Consumer& c) {
    const int stage = static_cast<int>(c.pos % stages_);
    const Stage& s = ring_[stage];
    if (!parity_wait_passes(s.full_phases, (c.pos / stages_) & 1)) return false;
    if (s.landed != c.pos || s.in_flight == c.pos) {
      fail("consumer " + std::to_string(g) + " passed its wait at position " +
           std::to_string(c.pos) + " before its fill landed");
    }
    release(c);
    c.prev = stage;
    return advance(c);
  }
  bool advance(Consumer& c) {
    ++c.it;
    ++c.pos;
    return true;
  }
  void release(Consumer& c) {
    if (c.prev < 0) return;
    Stage& s = ring_[c.prev];
    const int readers = form_ == Form::EveryConsumer ? kConsumers : 1;
    if (++s.empty_arrivals == readers) {
      s.empty_arrivals = 0;
      ++s.empty_phases;
    }
    c.prev = -1;
  }
  bool meet() {
    for (const Consumer& c : cons_)
      if (!c.met) return false;
    for (Consumer& c : cons_) {
      c.met = false;
      c.it = 0;
      ++c.segment;
    }
    return true;
  }
  void fail(const std::string& what) {
    if (violation_.empty()) violation_ = what;
  }

  int stages_;
  std::vector<int64_t> iters_;
  Form form_;
  std::vector<Stage> ring_;
  Consumer cons_[kConsumers];
  int64_t total_ = 0;
  int64_t next_fill_ = 0;
  size_t macs_ended_ = 0;  // ping-pong: segments whose MAC loop ended (in walk order)
  std::string violation_;
};

// One schedule: the consumers and the producer move whenever they can; when neither can, one
// fill lands, chosen by `pick` among the stages with a fill in flight (in issue order). Returns
// the first violation, "deadlock" if nothing can move before the end, or "".
template <class Pick>
std::string run(int stages, const std::vector<int64_t>& iters, Form form, Pick pick) {
  RingModel m(stages, iters, form);
  while (!m.done() && m.violation().empty()) {
    bool moved = false;
    for (int g = 0; g < kConsumers; ++g) moved |= m.consume(g);
    moved |= m.produce();
    if (moved) continue;
    const std::vector<int> loading = m.loading();
    if (loading.empty()) return "deadlock";
    m.land(pick(loading));
  }
  return m.violation();
}

// Schedules that hold fills back: in issue order, newest first, one stage's fills held until
// nothing else can move (for every stage), and seeded random orders.
std::vector<std::string> every_schedule(int stages, const std::vector<int64_t>& iters, Form form) {
  std::vector<std::string> out;
  out.push_back(run(stages, iters, form, [](const std::vector<int>& l) { return l.front(); }));
  out.push_back(run(stages, iters, form, [](const std::vector<int>& l) { return l.back(); }));
  for (int held_stage = 0; held_stage < stages; ++held_stage) {
    out.push_back(run(stages, iters, form, [&](const std::vector<int>& l) {
      for (int s : l)
        if (s != held_stage) return s;
      return l.front();
    }));
  }
  constexpr int kRandomSchedules = 64;
  for (int seed = 0; seed < kRandomSchedules; ++seed) {
    std::mt19937 rng(static_cast<uint32_t>(seed));
    out.push_back(run(stages, iters, form, [&](const std::vector<int>& l) {
      return l[std::uniform_int_distribution<size_t>(0, l.size() - 1)(rng)];
    }));
  }
  return out;
}

// Segments of one CTA's walk: one long, and short ones of odd length between long ones (a
// consumer then takes consecutive positions across the boundary).
std::vector<std::vector<int64_t>> walks(int stages) {
  const int64_t longer = 3 * stages + 1;
  return {{longer}, {1, longer, 3, 5, longer}, {stages + 1, stages + 2}};
}

}  // namespace

TEST_CASE("alternating consumers on the kernels' rings only pass waits on landed fills") {
  int checked = 0;
  for (const lw::TileShape& t : lw::kKernelTiles) {
    if (!lw::wgmma_consumers_alternate_k(t)) continue;
    for (bool dsm : {false, true}) {
      const auto stages = static_cast<int>(lw::wgmma_stages(t, dsm));
      for (const auto& iters : walks(stages)) {
        for (const std::string& v : every_schedule(stages, iters, Form::Alternate)) {
          INFO(lw::tile_text(t), " stages ", stages);
          CHECK(v == "");
        }
      }
      ++checked;
    }
  }
  CHECK(checked >= 8);  // 64x16, 64x32, 64x48, 64x64, each with its splitk-dsm ring
}

TEST_CASE("consumers that both read every stage are safe on odd rings too") {
  for (int stages : {5, 6, 7, 11, 13}) {
    for (const auto& iters : walks(stages)) {
      for (const std::string& v : every_schedule(stages, iters, Form::EveryConsumer)) {
        INFO("stages ", stages);
        CHECK(v == "");
      }
    }
  }
}

TEST_CASE(
    "ping-pong consumers on the kernels' rings, odd ones too, only pass waits on landed fills") {
  int odd = 0;
  for (const lw::TileShape& t : lw::kKernelTiles) {
    if (!lw::wgmma_can_pingpong(t)) continue;
    const auto stages = static_cast<int>(lw::wgmma_stages(t));
    odd += stages % 2;
    for (const auto& iters : walks(stages)) {
      for (const std::string& v : every_schedule(stages, iters, Form::Pingpong)) {
        INFO(lw::tile_text(t), " stages ", stages);
        CHECK(v == "");
      }
    }
  }
  CHECK(odd >= 1);  // 64x256 (5), 128x96 (7), 64x80 (11)
}

TEST_CASE("on an odd ring an alternating consumer passes on the partner's fill still in flight") {
  // 64x48x128's 7 stages before the even-ring rule, 64x64's 13: holding back position 1 (consumer
  // 1's) while consumer 0 runs ahead lets consumer 0's parity wait at position S + 1 pass on
  // stage 1's earlier phase.
  for (int stages : {7, 13}) {
    const std::vector<int64_t> one_segment = {3 * stages + 1};
    const std::string v = run(stages, one_segment, Form::Alternate, [](const std::vector<int>& l) {
      for (int s : l)
        if (s != 1) return s;
      return l.front();
    });
    INFO("stages ", stages);
    CHECK(v == "consumer 0 passed its wait at position " + std::to_string(stages + 1) +
                   " before its fill landed");
  }
}
