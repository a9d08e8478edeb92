// cuBLAS bf16 baseline in the project's layout (A MxK, B NxK row-major, C MxN row-major, fp32
// compute) on a given stream, told the partition's SM count (cublasSetSmCountTarget).
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace lw::bench {

class CublasRef {
 public:
  CublasRef(cudaStream_t stream, int64_t sms);
  ~CublasRef();
  CublasRef(const CublasRef&) = delete;
  CublasRef& operator=(const CublasRef&) = delete;
  // Enqueues C = A * B^T (bf16 out); throws on a cuBLAS error.
  void gemm(int64_t m, int64_t n, int64_t k, const __nv_bfloat16* a, const __nv_bfloat16* b,
            __nv_bfloat16* c);

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace lw::bench
