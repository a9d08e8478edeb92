// The A-class form's half of the mainloop (ladder step 18, sim/decomp/kernel_configs.hpp
// kernel_has_a_classes): the producer loads A's k-tile as one box per row class (a_classes.hpp);
// the consumers build wgmma's register A operand from those boxes, each thread shifting its rows
// by their class's offset, and multiply with B from the 128B-swizzled stage as usual.
#pragma once
#include <cstdint>

#include "cuda/kernel/a_classes.hpp"
#include "cuda/kernel/config.hpp"
#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/ptx.cuh"
#include "cuda/kernel/ptx_hopper.cuh"
#include "cuda/kernel/ptx_wgmma.cuh"

namespace lw::cuda {

// The class boxes of a tile of kRows rows in a stage: class c's at box(c), rows of kRowBytes.
template <int kRows>
struct AClassBox {
  static constexpr TileShape kTile{kRows, kWgmmaRows, kTileK};  // only the rows matter
  static constexpr auto kRowBytes = static_cast<uint32_t>(a_class_row_bytes(kTile));
  __device__ static uint32_t box(int c) {
    return static_cast<uint32_t>(a_class_box_offset(TileShape{kRows, kWgmmaRows, kTileK}, c));
  }
};

// The producer's A: class c's rows row + c + 8j (j < kRows / 8) of k-tile k0, after c rows of
// the class from before them, into box c of `dst`.
template <int kRows>
__device__ __forceinline__ void load_a_classes(uint32_t dst, const AClassMaps& cls, uint32_t bar,
                                               int32_t k0, int32_t row) {
  using Box = AClassBox<kRows>;
  const int32_t class_row = row / kRowClasses;  // row is a multiple of 8: the tile's first row
#pragma unroll
  for (int c = 0; c < kRowClasses; ++c)
    ptx::tma_load_2d(dst + Box::box(c), &cls.map[c], bar, k0, class_row - c);
}

// Where one consumer thread's A fragments lie in a stage: its rows g and g + 8 of every m64 block
// (g = lane / 4) are both of class g (box g, past its g leading rows); `offset` is row g of block
// 0 at column 2t (t = lane % 4) plus the even part of the class's shift, `odd` 16 when the shift
// is odd (a funnel shift then takes each pair from two words).
struct AFragPlace {
  uint32_t offset = 0;
  uint32_t odd = 0;
};

// kRows: the tile's rows; first_row: the first tile row of this consumer's block.
template <int kRows>
__device__ __forceinline__ AFragPlace a_frag_place(const AClassMaps& cls, int first_row) {
  using Box = AClassBox<kRows>;
  constexpr int kWarpRows = kWgmmaRows / 4;  // a warp's rows of an m64 block
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int warp = static_cast<int>(threadIdx.x / kWarpSize) % 4;
  const int g = lane / 4, t = lane % 4;
  const int shift = cls.shift[g];
  const int row_in_class = (first_row + warp * kWarpRows) / kRowClasses;
  AFragPlace f;
  f.offset = Box::box(g) + static_cast<uint32_t>(row_in_class + g) * Box::kRowBytes +
             static_cast<uint32_t>((2 * t + (shift & ~1)) * kElemBytes);
  f.odd = (shift & 1) != 0 ? 16u : 0u;
  return f;
}

// Two bf16 (a 32-bit fragment register) at byte `addr` (4-byte aligned) shifted up one element
// when `odd` is 16.
__device__ __forceinline__ uint32_t a_pair(uint32_t addr, uint32_t odd) {
  return __funnelshift_r(ptx::ld_shared_b32(addr), ptx::ld_shared_b32(addr + 4), odd);
}

// The register A operand of k step ks of m64 block mb: rows g / g + 8, columns 2t / 2t + 8.
template <int kRows>
__device__ __forceinline__ void load_a_frag(uint32_t stage_a, const AFragPlace& f, int mb, int ks,
                                            uint32_t (&a)[4]) {
  using Box = AClassBox<kRows>;
  constexpr uint32_t kBlockRows = kWgmmaRows / kRowClasses;  // class rows per m64 block
  constexpr uint32_t kHalfCols = 8 * kElemBytes;             // columns 2t + 8
  const uint32_t at = stage_a + f.offset + static_cast<uint32_t>(mb) * kBlockRows * Box::kRowBytes +
                      static_cast<uint32_t>(ks * 16 * kElemBytes);
  a[0] = a_pair(at, f.odd);
  a[1] = a_pair(at + Box::kRowBytes, f.odd);  // row g + 8: the next row of the class
  a[2] = a_pair(at + kHalfCols, f.odd);
  a[3] = a_pair(at + Box::kRowBytes + kHalfCols, f.odd);
}

}  // namespace lw::cuda
