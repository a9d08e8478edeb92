// The simulator never returns a makespan that is negative, NaN or infinite: a cost model giving
// an action such a time, or times that overflow, stop the run with a one-line reason.
#include <doctest/doctest.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "models/cost_model.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"

namespace {

// Options for a run on `sms` SMs, one CTA each, no timeline.
lw::SimOptions sim_options(int64_t sms) {
  lw::SimOptions opt;
  opt.sms = sms;
  return opt;
}

// Every action costs 1 (a MAC loop too: kIters k-tiles of 1 / kIters) except the one chosen, which
// costs `bad` (a MAC loop: kIters x bad / kIters).
constexpr double kIters = 16;  // k-tiles of a tile of the plans below

class FakeModel final : public lw::CostModel {
 public:
  FakeModel(std::string which, double bad) : which_(std::move(which)), bad_(bad) {}
  lw::CostNeeds needs(const lw::Plan&) const override {
    lw::CostNeeds n;
    n.segment_stretch = which_ == "segment_stretch";
    n.clock = which_ == "clock_stretch";
    return n;
  }
  double iter_time(const lw::Plan&, const lw::CostContext&) const override {
    return cost("mac") / kIters;
  }
  double transfer(lw::Transfer kind, const lw::Plan&, const lw::Segment&,
                  const lw::CostContext&) const override {
    return cost(lw::transfer_name(kind));
  }
  lw::FixedCosts fixed_costs(const lw::Plan&) const override {
    return lw::FixedCosts{cost("flag_latency"), 0.0, 0.0};
  }
  double stretch(lw::Stretch, const lw::Plan&, const lw::LoopStart&) const override { return bad_; }
  std::string time_unit() const override { return "iter"; }

 private:
  double cost(const char* action) const { return which_ == action ? bad_ : 1.0; }
  std::string which_;
  double bad_;
};

// Simulates `schedule` on 1024^3 (64 tiles of 16 iterations) on 3 SMs
// (Stream-K then splits tiles: 1024 iterations over 3 units); returns the error message.
std::string refusal(const std::string& schedule, const std::string& action, double bad) {
  const lw::Planned planned = lw::plan_schedule(schedule, {1024, 1024, 1024}, lw::TileShape{},
                                                lw::GpuShape{3, 1}, lw::Reduction::Deterministic);
  const FakeModel model(action, bad);
  try {
    const lw::SimResult r = lw::simulate(planned.plan, model, sim_options(3));
    return "(no error, makespan " + std::to_string(r.makespan) + ")";
  } catch (const std::runtime_error& e) {
    return e.what();
  }
}

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("the fake model's good costs simulate normally") {
  CHECK(refusal("dp", "none", 0).rfind("(no error", 0) == 0);
}

TEST_CASE("a NaN, infinite or negative action time is refused, naming the action") {
  CHECK(refusal("dp", "mac", kNan) ==
        "the cost model gave mac a time of nan (must be finite and >= 0)");
  CHECK(refusal("dp", "epilogue", kInf) ==
        "the cost model gave epilogue a time of inf (must be finite and >= 0)");
  // Negative but smaller than the MAC loop: the finish time would still move forward.
  CHECK(refusal("dp", "epilogue", -0.5) ==
        "the cost model gave epilogue a time of -0.500000 (must be finite and >= 0)");
  CHECK(refusal("streamk", "partial_store", -1) ==
        "the cost model gave partial_store a time of -1.000000 (must be finite and >= 0)");
  CHECK(refusal("streamk", "flag_latency", kNan) ==
        "the cost model gave flag_latency a time of nan (must be finite and >= 0)");
}

TEST_CASE("finite action times that overflow the clock are refused") {
  // 64 tiles on 3 SMs: each SM runs 21 or 22 MAC loops of 1e308 back to back -> the clock
  // overflows.
  const std::string e = refusal("dp", "mac", 1e308);
  CHECK(e.rfind("simulated time overflowed: event at t=inf", 0) == 0);
}

TEST_CASE("a segment stretch below 1 or not finite is refused") {
  CHECK(refusal("dp", "segment_stretch", 0.5) ==
        "the cost model gave segment_stretch 0.500000 (must be finite and >= 1)");
  CHECK(refusal("streamk", "segment_stretch", kNan) ==
        "the cost model gave segment_stretch nan (must be finite and >= 1)");
  CHECK(refusal("dp", "segment_stretch", 1.5).rfind("(no error", 0) == 0);
}

TEST_CASE("a clock stretch below 1 or not finite is refused") {
  CHECK(refusal("dp", "clock_stretch", 0.9) ==
        "the cost model gave clock_stretch 0.900000 (must be finite and >= 1)");
  CHECK(refusal("streamk", "clock_stretch", kInf) ==
        "the cost model gave clock_stretch inf (must be finite and >= 1)");
  // 64 tiles on 3 SMs, every action 1 (a MAC loop too): 22 tiles x (1.5 + 1) on the busiest.
  CHECK(refusal("dp", "clock_stretch", 1.5) ==
        "(no error, makespan " + std::to_string(22 * (1.5 + 1.0)) + ")");
}
