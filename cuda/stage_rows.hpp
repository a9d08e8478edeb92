// The staging copy of operands TMA cannot read (rows not 16-byte strided, or a base not 16-byte
// aligned): both operands copied into buffers of padded rows in one launch (plan_stages_operands).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace lw::cuda {

// One row-major bf16 matrix to stage: `rows` rows of `k` elements at `src` (any 2-byte alignment)
// into `dst`, 16-byte aligned, rows `pitch` elements apart (pitch >= k, pitch % 8 == 0).
struct StageJob {
  const __nv_bfloat16* src = nullptr;
  __nv_bfloat16* dst = nullptr;
  int64_t rows = 0;
};

// Enqueues one launch copying both jobs' rows of depth `k` to rows of `pitch` elements (the pad
// elements of each row written as zero); no sync. Throws std::runtime_error on a launch failure.
void stage_rows(const StageJob& a, const StageJob& b, int64_t k, int64_t pitch,
                cudaStream_t stream);

}  // namespace lw::cuda
