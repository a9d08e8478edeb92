// TMA tensor-map encoding for the wgmma kernel (see tensor_map.hpp).
#include "cuda/tensor_map.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "sim/decomp/types.hpp"

namespace lw::cuda {

namespace {

constexpr unsigned kDriverApiVersion = CUDART_VERSION;  // the toolkit this is built with
constexpr int kRank = 2;

using EncodeTiled = decltype(cuTensorMapEncodeTiled);

EncodeTiled* encode_fn() {
  static EncodeTiled* fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    const cudaError_t e = cudaGetDriverEntryPointByVersion(
        "cuTensorMapEncodeTiled", &p, kDriverApiVersion, cudaEnableDefault, &found);
    if (e != cudaSuccess || found != cudaDriverEntryPointSuccess || p == nullptr) {
      throw std::runtime_error(std::string("the CUDA driver has no cuTensorMapEncodeTiled: ") +
                               cudaGetErrorString(e));
    }
    return reinterpret_cast<EncodeTiled*>(p);
  }();
  return fn;
}

// A bf16 map of `rank` dimensions (innermost first; strides in bytes, one fewer than dims), unit
// element strides, no interleave; `what` names it in the error.
template <int kMapRank>
CUtensorMap encode_bf16_tiled(const void* base, const cuuint64_t (&dims)[kMapRank],
                              const cuuint64_t (&strides)[kMapRank - 1],
                              const cuuint32_t (&box)[kMapRank], CUtensorMapSwizzle swizzle,
                              CUtensorMapL2promotion promotion, const char* what) {
  cuuint32_t elem_strides[kMapRank];
  for (cuuint32_t& e : elem_strides) e = 1;
  CUtensorMap map{};
  const CUresult r =
      encode_fn()(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, kMapRank, const_cast<void*>(base), dims,
                  strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, promotion,
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    throw std::runtime_error(std::string("cuTensorMapEncodeTiled") + what +
                             " failed with CUresult " + std::to_string(r));
  }
  return map;
}

// A 2-D bf16 map of a row-major rows x cols matrix, rows `pitch` elements apart, with box
// box_cols x box_rows.
CUtensorMap encode_bf16_map(const void* base, int64_t rows, int64_t cols, int64_t pitch,
                            uint32_t box_rows, uint32_t box_cols, CUtensorMapSwizzle swizzle,
                            CUtensorMapL2promotion promotion) {
  const cuuint64_t dims[kRank] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
  const cuuint64_t strides[kRank - 1] = {static_cast<cuuint64_t>(pitch) *
                                         static_cast<cuuint64_t>(kBf16Bytes)};
  const cuuint32_t box[kRank] = {box_cols, box_rows};
  return encode_bf16_tiled<kRank>(base, dims, strides, box, swizzle, promotion, "");
}

CUtensorMapL2promotion promotion_of(int bytes) {
  switch (bytes) {
    case 0:
      return CU_TENSOR_MAP_L2_PROMOTION_NONE;
    case 64:
      return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
    case 128:
      return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
    case 256:
      return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
    default:
      require_l2_promotion(bytes);  // throws
      return CU_TENSOR_MAP_L2_PROMOTION_NONE;
  }
}

}  // namespace

bool valid_l2_promotion(int bytes) {
  return bytes == 0 || bytes == 64 || bytes == 128 || bytes == 256;
}

void require_l2_promotion(int bytes) {
  if (!valid_l2_promotion(bytes)) {
    throw std::invalid_argument("L2 promotion " + std::to_string(bytes) +
                                " bytes: the TMA offers 0, 64, 128 or 256");
  }
}

CUtensorMap encode_operand_map(const void* base, int64_t rows, int64_t k, int64_t pitch,
                               uint32_t box_rows, uint32_t box_k, int l2_promotion_bytes) {
  return encode_bf16_map(base, rows, k, pitch, box_rows, box_k, CU_TENSOR_MAP_SWIZZLE_128B,
                         promotion_of(l2_promotion_bytes));
}

CUtensorMap encode_operand_chunks_map(const void* base, int64_t rows, int64_t k, int64_t pitch,
                                      uint32_t box_rows, uint32_t chunk_k, uint32_t box_chunks,
                                      int l2_promotion_bytes) {
  constexpr int kChunkRank = 3;
  const int64_t chunks = (k + chunk_k - 1) / chunk_k;
  const cuuint64_t dims[kChunkRank] = {chunk_k, static_cast<cuuint64_t>(rows),
                                       static_cast<cuuint64_t>(chunks)};
  const cuuint64_t strides[kChunkRank - 1] = {
      static_cast<cuuint64_t>(pitch) * static_cast<cuuint64_t>(kBf16Bytes),
      static_cast<cuuint64_t>(chunk_k) * static_cast<cuuint64_t>(kBf16Bytes)};
  const cuuint32_t box[kChunkRank] = {chunk_k, box_rows, box_chunks};
  return encode_bf16_tiled<kChunkRank>(base, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_128B,
                                       promotion_of(l2_promotion_bytes), " (k-chunks)");
}

CUtensorMap encode_output_map(void* base, int64_t rows, int64_t cols, uint32_t box_rows,
                              uint32_t box_cols) {
  constexpr uint32_t kSwizzleBytes = 128;
  const bool swizzled = box_cols * kBf16Bytes == kSwizzleBytes;
  return encode_bf16_map(base, rows, cols, cols, box_rows, box_cols,
                         swizzled ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE);
}

}  // namespace lw::cuda
