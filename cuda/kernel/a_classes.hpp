// The A-class form's tensor maps (ladder step 18): bf16 rows of K % 8 != 0 elements are not
// 16-byte strided, but rows c, c + 8, c + 16, ... are (8K elements apart), so each residue class
// c of A's rows mod 8 is a map of its own, based at the 16-byte boundary at or below row c's
// start. Host (cuda/tensor_map.hpp encodes them) and device (mainloop_classes.cuh reads them).
#pragma once
#include <cuda.h>

#include <cstdint>

#include "sim/decomp/kernel_configs.hpp"

namespace lw::cuda {

inline constexpr int kRowClasses = static_cast<int>(kTmaRowAlignElems);

// map[c]: rows c + 8i of A (i = 0, 1, ...), k extended by shift[c] at the front: class
// coordinate x holds row element x - shift[c] (those before 0 belong to the previous row and are
// never used; those from K + shift[c] on read as zero). A box at an aligned x = k0 therefore
// holds each row's elements k0 - shift[c] ... and row element k0 + j at box column j + shift[c].
struct AClassMaps {
  CUtensorMap map[kRowClasses];
  int32_t shift[kRowClasses];  // elements, 0..7
};

}  // namespace lw::cuda
