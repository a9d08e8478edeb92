// FP64 host reference GEMM and error metrics for small problems (tests and bench correctness).
#pragma once
#include <cstdint>
#include <vector>

namespace lw::bench {

// C[i][j] = sum_k A[i][k] * B[j][k] in double; A, B given as bf16 bit patterns.
std::vector<double> reference_gemm(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b,
                                   int64_t m, int64_t n, int64_t k);

double bf16_to_double(uint16_t bits);

// ||test - ref||_F / ||ref||_F; NaN if any test value is not finite. test: bf16 bits or fp32.
double rel_frobenius_bf16(const std::vector<uint16_t>& test, const std::vector<double>& ref);
double rel_frobenius_f32(const std::vector<float>& test, const std::vector<double>& ref);

}  // namespace lw::bench
