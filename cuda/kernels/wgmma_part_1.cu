// Part 1 of the wgmma kernel table (cuda/kernels/wgmma_entry.hpp).
#include "cuda/kernels/wgmma_part.cuh"

LW_WGMMA_PART_DEFINE(1)
