// FP64 host reference GEMM (see host_ref.hpp).
#include "cuda/bench/host_ref.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace lw::bench {

double bf16_to_double(uint16_t bits) {
  const uint32_t u = uint32_t{bits} << 16;
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

std::vector<double> reference_gemm(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b,
                                   int64_t m, int64_t n, int64_t k) {
  std::vector<double> ad(a.size()), bd(b.size()), c(static_cast<size_t>(m * n));
  for (size_t i = 0; i < a.size(); ++i) ad[i] = bf16_to_double(a[i]);
  for (size_t i = 0; i < b.size(); ++i) bd[i] = bf16_to_double(b[i]);
  for (int64_t i = 0; i < m; ++i) {
    const double* ar = ad.data() + i * k;
    for (int64_t j = 0; j < n; ++j) {
      const double* br = bd.data() + j * k;
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += ar[p] * br[p];
      c[static_cast<size_t>(i * n + j)] = s;
    }
  }
  return c;
}

namespace {
template <typename F>
double rel_frobenius(size_t count, const std::vector<double>& ref, F value) {
  double d2 = 0, r2 = 0;
  for (size_t i = 0; i < count; ++i) {
    const double t = value(i);
    if (!std::isfinite(t)) return std::numeric_limits<double>::quiet_NaN();
    d2 += (t - ref[i]) * (t - ref[i]);
    r2 += ref[i] * ref[i];
  }
  return r2 > 0 ? std::sqrt(d2 / r2) : std::sqrt(d2);
}
}  // namespace

double rel_frobenius_bf16(const std::vector<uint16_t>& test, const std::vector<double>& ref) {
  return rel_frobenius(test.size(), ref, [&](size_t i) { return bf16_to_double(test[i]); });
}

double rel_frobenius_f32(const std::vector<float>& test, const std::vector<double>& ref) {
  return rel_frobenius(test.size(), ref, [&](size_t i) { return double{test[i]}; });
}

}  // namespace lw::bench
