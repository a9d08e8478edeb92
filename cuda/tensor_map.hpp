// Host encoding of the TMA tensor maps the wgmma kernel loads its operands through, with the
// driver's cuTensorMapEncodeTiled looked up via the runtime (the binaries do not link libcuda).
#pragma once
#include <cuda.h>

#include <cstdint>

namespace lw::cuda {

// 2-D bf16 map of a row-major `rows` x `k` matrix (k contiguous; k % 8 == 0 and `base` 16-byte
// aligned): box `box_k` x `box_rows` elements, 128-byte swizzle, out-of-bounds elements read as
// zero. Throws std::runtime_error when the driver lacks the entry point or rejects the map.
CUtensorMap encode_operand_map(const void* base, int64_t rows, int64_t k, uint32_t box_rows,
                               uint32_t box_k);

}  // namespace lw::cuda
