// The staging copy (stage_rows.hpp): each thread writes 16-byte chunks of the padded rows,
// reading the source elements one by one (its rows are only 2-byte aligned).
#include <algorithm>

#include "cuda/gemm.hpp"
#include "cuda/stage_rows.hpp"

namespace lw::cuda {
namespace {

constexpr int kChunkElems = 8;         // bf16 per 16-byte store
constexpr int kStageThreads = 256;     // threads per block
constexpr int64_t kMaxBlocks = 65535;  // grid-stride beyond this many blocks

__device__ void stage_chunk(const StageJob& j, int64_t chunk, int64_t k, int64_t chunks_per_row,
                            int64_t pitch) {
  const int64_t row = chunk / chunks_per_row;
  const int64_t col0 = (chunk % chunks_per_row) * kChunkElems;
  const __nv_bfloat16* src = j.src + row * k;
  alignas(16) __nv_bfloat16 v[kChunkElems];
#pragma unroll
  for (int e = 0; e < kChunkElems; ++e) {
    const int64_t col = col0 + e;
    v[e] = col < k ? src[col] : __float2bfloat16(0.0f);
  }
  *reinterpret_cast<uint4*>(j.dst + row * pitch + col0) = *reinterpret_cast<const uint4*>(v);
}

__global__ void stage_rows_kernel(StageJob a, StageJob b, int64_t k, int64_t pitch) {
  const int64_t chunks_per_row = pitch / kChunkElems;
  const int64_t chunks_a = a.rows * chunks_per_row;
  const int64_t total = chunks_a + b.rows * chunks_per_row;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t c = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; c < total;
       c += stride) {
    if (c < chunks_a) {
      stage_chunk(a, c, k, chunks_per_row, pitch);
    } else {
      stage_chunk(b, c - chunks_a, k, chunks_per_row, pitch);
    }
  }
}

}  // namespace

void stage_rows(const StageJob& a, const StageJob& b, int64_t k, int64_t pitch,
                cudaStream_t stream) {
  const int64_t chunks = (a.rows + b.rows) * (pitch / kChunkElems);
  const int64_t blocks =
      std::clamp<int64_t>((chunks + kStageThreads - 1) / kStageThreads, 1, kMaxBlocks);
  stage_rows_kernel<<<static_cast<unsigned>(blocks), kStageThreads, 0, stream>>>(a, b, k, pitch);
  check_cuda(cudaGetLastError(), "stage_rows launch");
}

}  // namespace lw::cuda
