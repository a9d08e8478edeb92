// Build-system smoke test: proves cuda/defs.bzl compiles a .cu with nvcc for sm_90a, that the
// shared sim/decomp plan headers compile for host and device under nvcc, and that the object links
// into host code. Called by //cuda:nvcc_smoke_test, which never launches the kernel.
#include "cuda/nvcc_smoke.hpp"
#include "sim/decomp/walk.hpp"

namespace {

// Counts the segments CTA `cta` walks, on the device (never launched in CI).
__global__ void lw_nvcc_smoke_kernel(lw::Plan plan, int64_t* out) {
  lw::CtaWalk w;
  lw::walk_begin(plan, blockIdx.x, w);
  lw::Segment s;
  int64_t n = 0;
  while (lw::walk_next(plan, w, s)) ++n;
  out[blockIdx.x] = n;
}

}  // namespace

int lw_nvcc_smoke_sm_count_needed() {
  // Reference the kernel so nvcc really emits device code for it.
  void (*kernel)(lw::Plan, int64_t*) = lw_nvcc_smoke_kernel;
  return kernel != nullptr ? 1 : 0;
}

int64_t lw_nvcc_smoke_count_segments(const lw::Plan& plan, int64_t cta) {
  lw::CtaWalk w;
  lw::walk_begin(plan, cta, w);
  lw::Segment s;
  int64_t n = 0;
  while (lw::walk_next(plan, w, s)) ++n;
  return n;
}
