// Device helpers for the benchmark and GPU tests (see device_util.hpp).
#include <cmath>

#include "cuda/bench/device_util.hpp"
#include "cuda/gemm.hpp"
#include "sim/util/hash.hpp"

namespace lw::bench {

namespace {

constexpr int kBlock = 256;
constexpr int kMaxBlocks = 4096;
constexpr int64_t kProbeCycles = 400000;  // ~0.2 ms spin at ~2 GHz
constexpr uint32_t kBf16Nan = 0x7FC0u;
constexpr double kNsPerUs = 1000.0;
constexpr int kL2FlushFactor = 2;

int blocks_for(int64_t count) {
  const int64_t b = (count + kBlock - 1) / kBlock;
  return static_cast<int>(b < kMaxBlocks ? (b < 1 ? 1 : b) : kMaxBlocks);
}

__global__ void fill_kernel(__nv_bfloat16* p, int64_t n, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    const uint64_t h = splitmix64(seed ^ splitmix64(static_cast<uint64_t>(i)));
    const float u = static_cast<float>(h >> 40) * (1.0f / 16777216.0f);  // [0, 1), 24 bits
    p[i] = __float2bfloat16_rn(u - 0.5f);
  }
}

__global__ void poison_kernel(void* p, int64_t n, int elem_bytes) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    if (elem_bytes == 2) {
      static_cast<uint16_t*>(p)[i] = static_cast<uint16_t>(kBf16Nan);
    } else {
      static_cast<float*>(p)[i] = __int_as_float(0x7FC00000);
    }
  }
}

struct DevComparison {
  double diff_sq;
  double ref_sq;
  unsigned long long nonfinite;
  unsigned long long bits_differ;
};

__device__ float load_as_float(const void* p, int64_t i, int elem_bytes, uint32_t& bits) {
  if (elem_bytes == 2) {
    const uint16_t v = static_cast<const uint16_t*>(p)[i];
    bits = v;
    return __uint_as_float(uint32_t{v} << 16);
  }
  const float f = static_cast<const float*>(p)[i];
  bits = __float_as_uint(f);
  return f;
}

__global__ void compare_kernel(const void* t, const void* r, int64_t n, int elem_bytes,
                               DevComparison* out) {
  double d2 = 0, r2 = 0;
  unsigned long long bad = 0, differ = 0;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    uint32_t tb, rb;
    const double tv = load_as_float(t, i, elem_bytes, tb);
    const double rv = load_as_float(r, i, elem_bytes, rb);
    differ += tb != rb;
    if (!isfinite(tv)) {
      ++bad;
      continue;
    }
    d2 += (tv - rv) * (tv - rv);
    r2 += rv * rv;
  }
  atomicAdd(&out->diff_sq, d2);
  atomicAdd(&out->ref_sq, r2);
  atomicAdd(&out->nonfinite, bad);
  atomicAdd(&out->bits_differ, differ);
}

__global__ void clock_probe_kernel(double* mhz) {
  uint64_t t0, t1;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  const long long c0 = clock64();
  long long c1 = c0;
  while (c1 - c0 < kProbeCycles) c1 = clock64();
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  *mhz = static_cast<double>(c1 - c0) / static_cast<double>(t1 - t0) * kNsPerUs;
}

}  // namespace

double Comparison::rel_err() const { return ref_sq > 0 ? std::sqrt(diff_sq / ref_sq) : 0.0; }

void fill_random(__nv_bfloat16* p, int64_t count, uint64_t seed, cudaStream_t s) {
  fill_kernel<<<blocks_for(count), kBlock, 0, s>>>(p, count, seed);
  cuda::check_cuda(cudaGetLastError(), "fill_random");
}

void poison(void* p, int64_t count, int elem_bytes, cudaStream_t s) {
  poison_kernel<<<blocks_for(count), kBlock, 0, s>>>(p, count, elem_bytes);
  cuda::check_cuda(cudaGetLastError(), "poison");
}

Comparison compare(const void* test, const void* ref, int64_t count, int elem_bytes,
                   cudaStream_t s) {
  DevComparison* d = nullptr;
  cuda::check_cuda(cudaMalloc(&d, sizeof(DevComparison)), "compare alloc");
  cuda::check_cuda(cudaMemsetAsync(d, 0, sizeof(DevComparison), s), "compare memset");
  compare_kernel<<<blocks_for(count), kBlock, 0, s>>>(test, ref, count, elem_bytes, d);
  cuda::check_cuda(cudaGetLastError(), "compare");
  DevComparison h{};
  cuda::check_cuda(cudaMemcpyAsync(&h, d, sizeof(h), cudaMemcpyDeviceToHost, s), "compare copy");
  cuda::check_cuda(cudaStreamSynchronize(s), "compare sync");
  cuda::check_cuda(cudaFree(d), "compare free");
  Comparison c;
  c.diff_sq = h.diff_sq;
  c.ref_sq = h.ref_sq;
  c.nonfinite = static_cast<int64_t>(h.nonfinite);
  c.bits_differ = static_cast<int64_t>(h.bits_differ);
  return c;
}

double probe_sm_clock_mhz(cudaStream_t s) {
  double* d = nullptr;
  cuda::check_cuda(cudaMalloc(&d, sizeof(double)), "probe alloc");
  clock_probe_kernel<<<1, 1, 0, s>>>(d);
  cuda::check_cuda(cudaGetLastError(), "clock probe");
  double h = 0;
  cuda::check_cuda(cudaMemcpyAsync(&h, d, sizeof(h), cudaMemcpyDeviceToHost, s), "probe copy");
  cuda::check_cuda(cudaStreamSynchronize(s), "probe sync");
  cuda::check_cuda(cudaFree(d), "probe free");
  return h;
}

L2Flusher::L2Flusher(int device) {
  int l2 = 0;
  cuda::check_cuda(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device), "L2 size");
  bytes_ = static_cast<size_t>(l2) * kL2FlushFactor;
  cuda::check_cuda(cudaMalloc(&buf_, bytes_), "L2 flush buffer");
}

L2Flusher::~L2Flusher() { cudaFree(buf_); }

void L2Flusher::flush(cudaStream_t s) {
  value_ = (value_ + 1) & 0xFF;
  cuda::check_cuda(cudaMemsetAsync(buf_, value_, bytes_, s), "L2 flush");
}

}  // namespace lw::bench
