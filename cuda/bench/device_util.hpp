// Device helpers for the benchmark and the GPU tests: random bf16 fill, NaN poisoning, on-device
// comparison of two outputs, L2 flush buffer, and an SM-clock probe (clock64 vs %globaltimer).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace lw::bench {

// Uniform values in [-0.5, 0.5), a pure function of (index, seed): never all zeros.
void fill_random(__nv_bfloat16* p, int64_t count, uint64_t seed, cudaStream_t s);
// Writes NaN into every element (bf16 when elem_bytes == 2, fp32 when 4).
void poison(void* p, int64_t count, int elem_bytes, cudaStream_t s);

struct Comparison {
  double diff_sq = 0;       // sum (test - ref)^2 over finite pairs
  double ref_sq = 0;        // sum ref^2
  int64_t nonfinite = 0;    // test elements that are NaN/Inf (unwritten when poisoned)
  int64_t bits_differ = 0;  // elements whose bit patterns differ
  double rel_err() const;   // sqrt(diff_sq / ref_sq)
};
// Compares `test` with `ref`, both of `elem_bytes` (2 = bf16, 4 = fp32); synchronizes `s`.
Comparison compare(const void* test, const void* ref, int64_t count, int elem_bytes,
                   cudaStream_t s);

// SM clock in MHz measured by one CTA: clock64 cycles over %globaltimer ns while spinning.
double probe_sm_clock_mhz(cudaStream_t s);

// A buffer of at least 2x the L2 size; flush() overwrites it (evicting A, B, C from L2).
class L2Flusher {
 public:
  explicit L2Flusher(int device);
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;
  void flush(cudaStream_t s);

 private:
  void* buf_ = nullptr;
  size_t bytes_ = 0;
  int value_ = 0;
};

}  // namespace lw::bench
