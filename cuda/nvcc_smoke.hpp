// Host API of cuda/nvcc_smoke.cu, the build-system smoke target; used by //cuda:nvcc_smoke_test.
#pragma once

// Returns 1 (a constant); exists only to prove the nvcc-built object links into host code.
int lw_nvcc_smoke_sm_count_needed();
