// Run-time arguments of the GEMM kernels besides the Plan: operand, workspace, flag and trace
// pointers. Plain struct passed by value as a kernel parameter.
#pragma once
#include <cuda_bf16.h>

#include <cstdint>

#include "cuda/kernel/trace_record.hpp"

namespace lw::cuda {

struct GemmParams {
  const __nv_bfloat16* a = nullptr;  // M x K row-major
  const __nv_bfloat16* b = nullptr;  // N x K row-major (K contiguous)
  void* c = nullptr;                 // M x N row-major, bf16 or fp32 (out_f32)
  float* workspace = nullptr;        // workspace_slots x (tile_m * tile_n) fp32
  int32_t* flags = nullptr;          // workspace_slots int32, zeroed before every launch
  TraceBuffers trace;                // traced launches only (trace.ctas == nullptr: untraced)
  int32_t m = 0, n = 0, k = 0;
  bool vector_loads = false;  // K % 8 == 0 and A, B 16-byte aligned: 16-byte cp.async loads
  bool out_f32 = false;       // C is fp32 (else bf16)
  bool c_vectors = false;     // bf16 C 16-byte aligned with N % 8 == 0: TMA-store epilogue
  int32_t c_store_bytes = 0;  // staged epilogue's stores: the widest (bytes, 2 to 16) C allows
};

}  // namespace lw::cuda
