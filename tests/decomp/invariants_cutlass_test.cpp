// Sweep invariants (coverage, single owner, in-place flags, acyclic waits) for the CUTLASS SM90
// scheduler in all four decomposition modes.
#include <doctest/doctest.h>

#include "tests/decomp/sweep.hpp"

TEST_CASE(
    "cutlass, cutlass-dp, cutlass-streamk and cutlass-splitk:3 plans satisfy the invariants") {
  const auto r =
      lw_test::sweep_schedules({"cutlass", "cutlass-dp", "cutlass-streamk", "cutlass-splitk:3"}, 1);
  INFO(r.failure);
  CHECK(r.plans > 3000);
  CHECK(r.failures == 0);
}
