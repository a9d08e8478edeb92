// Host API of cuda/nvcc_smoke.cu, the build-system smoke target; used by //cuda:nvcc_smoke_test.
#pragma once
#include <cstdint>

#include "sim/decomp/plan.hpp"

// Returns 1 (a constant); exists only to prove the nvcc-built object links into host code.
int lw_nvcc_smoke_sm_count_needed();

// Segments CTA `cta` of `plan` walks, counted by the nvcc-compiled copy of sim/decomp/walk.hpp.
int64_t lw_nvcc_smoke_count_segments(const lw::Plan& plan, int64_t cta);
