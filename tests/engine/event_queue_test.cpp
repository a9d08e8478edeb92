// The event heap pops in (time, priority, insertion) order, also when pops and pushes interleave
// (the popped slot is reused by the next push); priorities and times outside their range are
// refused.
#include "sim/engine/event_queue.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <tuple>
#include <vector>

TEST_CASE("equal times pop by priority, then insertion order") {
  lw::EventQueue q;
  q.push(5.0, 1, 0, 10);
  q.push(5.0, 0, 0, 11);
  q.push(1.0, 9, 0, 12);
  q.push(5.0, 0, 0, 13);
  std::vector<int64_t> order;
  while (!q.empty()) order.push_back(q.pop().subject);
  CHECK(order == std::vector<int64_t>{12, 11, 13, 10});
}

TEST_CASE("interleaved pops and pushes match a sorted reference") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> small(0, 5);
  lw::EventQueue q;
  // Reference: every pushed event with its insertion number; popped ones removed.
  std::vector<std::tuple<double, int32_t, uint64_t, int64_t>> live;
  uint64_t seq = 0;
  int64_t id = 0;
  const auto push = [&](double t) {
    const int32_t prio = small(rng) % 2;
    q.push(t, prio, 0, id);
    live.emplace_back(t, prio, seq++, id++);
  };
  for (int i = 0; i < 20; ++i) push(small(rng));
  double now = 0;
  for (int step = 0; step < 2000 && !live.empty(); ++step) {
    const auto expected = *std::min_element(live.begin(), live.end());
    live.erase(std::find(live.begin(), live.end(), expected));
    REQUIRE(!q.empty());
    const lw::Event e = q.pop();
    CHECK(e.subject == std::get<3>(expected));
    CHECK(e.time >= now);
    now = e.time;
    // Handlers usually schedule one successor, sometimes none or two.
    const int successors = step < 1500 ? 1 + (small(rng) == 0) - (small(rng) == 1) : 0;
    for (int s = 0; s < successors; ++s) push(now + small(rng));
  }
  CHECK(q.empty());
}

TEST_CASE("priorities outside [0, 255] are refused; 255 is the last to pop") {
  lw::EventQueue q;
  CHECK(lw::EventQueue::kMaxPriority == 255);
  CHECK_THROWS_AS(q.push(1.0, -1, 0, 0), std::out_of_range);
  CHECK_THROWS_AS(q.push(1.0, 256, 0, 0), std::out_of_range);
  CHECK(q.empty());
  q.push(1.0, 255, 0, 1);
  q.push(1.0, 254, 0, 2);
  q.push(1.0, 0, 0, 3);
  CHECK(q.pop().subject == 3);
  const lw::Event e = q.pop();
  CHECK(e.subject == 2);
  CHECK(e.priority == 254);
  CHECK(q.pop().priority == 255);
}

TEST_CASE("times that are not finite, negative, or before the last pop are refused") {
  lw::EventQueue q;
  CHECK_THROWS_AS(q.push(std::nan(""), 0, 0, 0), std::domain_error);
  CHECK_THROWS_AS(q.push(HUGE_VAL, 0, 0, 0), std::domain_error);
  CHECK_THROWS_AS(q.push(-1.0, 0, 0, 0), std::domain_error);
  q.push(5.0, 0, 0, 0);
  CHECK(q.pop().time == 5.0);
  CHECK_THROWS_AS(q.push(4.0, 0, 0, 0), std::domain_error);
  q.push(5.0, 0, 0, 1);  // the same time is fine
  CHECK(q.pop().subject == 1);
  q.clear();  // a new run starts at 0 again
  q.push(0.0, 0, 0, 2);
  CHECK(q.pop().subject == 2);
}
