// TimeBuckets pops in (time, order) order whatever the push order (the simulator's MAC loop ends:
// equal progress completes in CTA-slot order), with pushes and pops interleaved; -0.0 and 0.0
// share one bucket.
#include "sim/engine/time_buckets.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

namespace {

struct Id {
  uint64_t order;
};

}  // namespace

TEST_CASE("equal times pop by order, not by push order") {
  lw::TimeBuckets<Id> q;
  q.push(2.0, uint64_t{7});
  q.push(1.0, uint64_t{9});
  q.push(2.0, uint64_t{3});
  q.push(2.0, uint64_t{5});
  std::vector<std::pair<double, uint64_t>> popped;
  while (!q.empty()) {
    double t = 0;
    const uint64_t id = q.pop(&t).order;
    popped.emplace_back(t, id);
  }
  CHECK(popped == std::vector<std::pair<double, uint64_t>>{{1.0, 9}, {2.0, 3}, {2.0, 5}, {2.0, 7}});
}

TEST_CASE("-0.0 joins 0.0's bucket") {
  lw::TimeBuckets<Id> q;
  q.push(0.0, uint64_t{2});
  q.push(-0.0, uint64_t{1});
  double t = 1;
  CHECK(q.pop(&t).order == 1);
  CHECK(q.pop(&t).order == 2);
  CHECK(q.empty());
}

TEST_CASE("interleaved pushes and pops match a sorted reference; clear() empties") {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> small(0, 6);
  lw::TimeBuckets<Id> q;
  std::vector<std::pair<double, uint64_t>> live;
  uint64_t id = 0;
  double now = 0;
  for (int round = 0; round < 300; ++round) {
    const int pushes = small(rng) % 3;
    for (int i = 0; i < pushes; ++i) {
      const double t = now + small(rng);         // never before the last pop, like event times
      const uint64_t order = (id++ * 37) % 101;  // out of push order
      q.push(t, order);
      live.emplace_back(t, order);
    }
    if (q.empty()) continue;
    const auto first = std::min_element(live.begin(), live.end());
    double t = 0;
    const uint64_t order = q.pop(&t).order;
    CHECK(t == first->first);
    CHECK(order == first->second);
    now = t;
    live.erase(first);
    CHECK(q.size() == live.size());
  }
  q.clear();
  CHECK(q.empty());
  q.push(1.0, uint64_t{4});
  double t = 0;
  CHECK(q.pop(&t).order == 4);
}
