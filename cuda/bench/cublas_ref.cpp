// cuBLAS baseline (see cublas_ref.hpp): row-major C = A*B^T as column-major C^T = B^T(op T) * A.
#include "cuda/bench/cublas_ref.hpp"

#include <stdexcept>
#include <string>

namespace lw::bench {

namespace {
void check_blas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int{s}));
  }
}
}  // namespace

CublasRef::CublasRef(cudaStream_t stream, int64_t sms) {
  check_blas(cublasCreate(&handle_), "cublasCreate");
  check_blas(cublasSetStream(handle_, stream), "cublasSetStream");
  check_blas(cublasSetSmCountTarget(handle_, static_cast<int>(sms)), "cublasSetSmCountTarget");
}

CublasRef::~CublasRef() { cublasDestroy(handle_); }

void CublasRef::gemm(int64_t m, int64_t n, int64_t k, const __nv_bfloat16* a,
                     const __nv_bfloat16* b, __nv_bfloat16* c) {
  const float alpha = 1.0f, beta = 0.0f;
  const int im = static_cast<int>(m), in = static_cast<int>(n), ik = static_cast<int>(k);
  check_blas(cublasGemmEx(handle_, CUBLAS_OP_T, CUBLAS_OP_N, in, im, ik, &alpha, b, CUDA_R_16BF, ik,
                          a, CUDA_R_16BF, ik, &beta, c, CUDA_R_16BF, in, CUBLAS_COMPUTE_32F,
                          CUBLAS_GEMM_DEFAULT),
             "cublasGemmEx");
}

}  // namespace lw::bench
