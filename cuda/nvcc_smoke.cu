// Build-system smoke test: proves cuda/defs.bzl compiles a .cu with nvcc for sm_90a and that the
// object links into host code. Called by //cuda:nvcc_smoke_test, which never launches the kernel.
// TODO: #include "sim/decomp/plan.hpp" (and add deps = ["//sim/decomp"] to :nvcc_smoke in BUILD)
// to prove nvcc compiles the shared host+device plan headers.
#include "cuda/nvcc_smoke.hpp"

namespace {

__global__ void lw_nvcc_smoke_kernel(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x); }

}  // namespace

int lw_nvcc_smoke_sm_count_needed() {
  // Reference the kernel so nvcc really emits device code for it.
  void (*kernel)(int*) = lw_nvcc_smoke_kernel;
  return kernel != nullptr ? 1 : 0;
}
