// Sweep invariants (coverage, single owner, slots/flags consumed once, acyclic waits) for the
// data-parallel and Split-K schedules.
#include <doctest/doctest.h>

#include "tests/decomp/sweep.hpp"

TEST_CASE("dp, dp-persistent, splitk:S and splitk-sep:S plans satisfy the walk invariants") {
  const auto r = lw_test::sweep_schedules(
      {"dp", "dp-persistent", "splitk:2", "splitk:3", "splitk:7", "splitk-sep:4"}, 2);
  INFO(r.failure);
  CHECK(r.plans > 3000);
  CHECK(r.failures == 0);
}

TEST_CASE(
    "splitk-dsm:S plans (splits as one cluster, tile-major units) satisfy the walk invariants") {
  const auto r = lw_test::sweep_schedules({"splitk-dsm:2", "splitk-dsm:3", "splitk-dsm:8"}, 2);
  INFO(r.failure);
  CHECK(r.plans > 1000);
  CHECK(r.failures == 0);
}
