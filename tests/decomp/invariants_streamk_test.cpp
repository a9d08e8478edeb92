// Sweep invariants (coverage, single owner, slots/flags consumed once, acyclic waits) for paper
// Stream-K, its two-tile hybrid and the seed's CUTLASS port.
#include <doctest/doctest.h>

#include "tests/decomp/sweep.hpp"

TEST_CASE("streamk, streamk:7, two-tile and cutlass-seed plans satisfy the walk invariants") {
  const auto r = lw_test::sweep_schedules({"streamk", "streamk:7", "two-tile", "cutlass-seed"}, 1);
  INFO(r.failure);
  CHECK(r.plans > 3000);
  CHECK(r.failures == 0);
}
