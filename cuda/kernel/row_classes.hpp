// Operands read through row-class maps (ladder step 18): rows TMA cannot address as one map (bf16
// K % 8 != 0) are 16-byte strided within each residue class mod 8, so each class is a tensor map
// of its own; the kernel loads a group of 8 x kClassBoxRows rows as 8 boxes, one per class, and
// un-permutes the tile in its TMA-store epilogue (cuda/tensor_map.hpp encodes the maps).
#pragma once
#include <cuda.h>

#include <cstdint>

#include "sim/decomp/kernel_configs.hpp"

namespace lw::cuda {

inline constexpr int kRowClasses = static_cast<int>(kTmaRowAlignElems);
// Rows of one class box: a group of kRowClasses boxes is one m64 block of A or one 64-column
// store box of B, so that each consumer thread ends up holding whole 16-byte chunks of C rows.
inline constexpr int kClassBoxRows = 8;
inline constexpr int kClassGroupRows = kRowClasses * kClassBoxRows;  // 64

// One operand's maps: class c covers rows c, c + 8, ... from the 16-byte boundary at or below row
// c's start; a box of class c at (k0 + shift[c], first / kRowClasses) holds rows first + c + 8i.
struct RowClassMaps {
  CUtensorMap map[kRowClasses];
  int32_t shift[kRowClasses];
};

// Everything a row-class launch reads besides GemmParams, in global memory: A's and B's class
// maps and C's map for stores of whole kClassGroupRows x 64 boxes (128B swizzle).
struct OperandClassMaps {
  RowClassMaps a;
  RowClassMaps b;
  CUtensorMap c;
};

}  // namespace lw::cuda
