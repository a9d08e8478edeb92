// Links the nvcc-built //cuda:nvcc_smoke into a host test; calls host code only (CI has no GPU).
#include "cuda/nvcc_smoke.hpp"

#include <doctest/doctest.h>

TEST_CASE("nvcc-built object links and its host function runs") {
  CHECK(lw_nvcc_smoke_sm_count_needed() == 1);
}
