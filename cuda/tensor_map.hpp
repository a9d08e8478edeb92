// Host encoding of the TMA tensor maps the wgmma kernel loads its operands and stores C through,
// with the driver's cuTensorMapEncodeTiled looked up via the runtime (the binaries do not link
// libcuda).
#pragma once
#include <cuda.h>

#include <cstdint>

#include "sim/decomp/types.hpp"

namespace lw::cuda {

// L2 promotion of the operand loads, in bytes (0 = none, 64, 128 or 256): how much the TMA pulls
// into L2 around each box row it reads. Rows whose pitch is a whole number of 128-byte lines
// (K % 64 == 0) take 256 B; other rows straddle lines, and 256 B then fetches lines no box reads:
// on the H200, 1x1 configs ran 14-16 % faster with 128 B at K % 64 != 0 (docs/PERFORMANCE.md,
// "Squares and K % 64 != 0"; `lastwave-bench --l2-promotion` measures any other).
constexpr int kAlignedRowL2PromotionBytes = 256;
constexpr int kMisalignedRowL2PromotionBytes = 128;

// The kernels' L2 promotion for operands of depth k (bf16 rows of k elements).
constexpr int default_l2_promotion(int64_t k) {
  return (k * kBf16Bytes) % kL2LineBytes == 0 ? kAlignedRowL2PromotionBytes
                                              : kMisalignedRowL2PromotionBytes;
}

// True for an L2 promotion the TMA offers (0, 64, 128, 256 bytes).
bool valid_l2_promotion(int bytes);
// Throws std::invalid_argument (one line) unless valid_l2_promotion(bytes).
void require_l2_promotion(int bytes);

// 2-D bf16 map of a row-major `rows` x `k` matrix (k contiguous, rows `pitch` elements apart;
// pitch % 8 == 0 and `base` 16-byte aligned): box `box_k` x `box_rows` elements, 128-byte swizzle,
// out-of-bounds elements (past k or past the last row) read as zero, rows promoted into L2 by
// `l2_promotion_bytes`. Throws std::invalid_argument for a promotion valid_l2_promotion refuses,
// std::runtime_error when the driver lacks the entry point or rejects the map.
CUtensorMap encode_operand_map(const void* base, int64_t rows, int64_t k, int64_t pitch,
                               uint32_t box_rows, uint32_t box_k, int l2_promotion_bytes);

// 3-D bf16 map of the same operand as k-chunks of `chunk_k` elements (chunk_k * 2 = 128 bytes,
// one swizzle row): dims chunk_k x rows x ceil(k / chunk_k), the chunks `chunk_k` elements apart
// in each row; box chunk_k x `box_rows` x `box_chunks`, landing as `box_chunks` planes of
// box_rows swizzled rows, i.e. `box_chunks` 2-D boxes of encode_operand_map in one copy. Chunks
// past the last read as zero; the last chunk of a row of k % chunk_k != 0 reads past its row (the
// loader takes that chunk through the 2-D map). Throws like encode_operand_map.
CUtensorMap encode_operand_chunks_map(const void* base, int64_t rows, int64_t k, int64_t pitch,
                                      uint32_t box_rows, uint32_t chunk_k, uint32_t box_chunks,
                                      int l2_promotion_bytes);

// 2-D bf16 map of a row-major `rows` x `cols` output (cols % 8 == 0, `base` 16-byte aligned) for
// TMA stores of `box_rows` x `box_cols` boxes: 128-byte swizzle when a box row is 128 bytes, else
// dense rows; elements outside the matrix are not written. Throws like encode_operand_map.
CUtensorMap encode_output_map(void* base, int64_t rows, int64_t cols, uint32_t box_rows,
                              uint32_t box_cols);

}  // namespace lw::cuda
