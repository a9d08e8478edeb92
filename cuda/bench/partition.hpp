// An SM partition to run on: a CUDA green context of N SMs (driver API) made current with its own
// stream, or the whole device (primary context) when N is the device's SM count.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace lw::bench {

class Partition {
 public:
  // Throws std::runtime_error / std::invalid_argument with a one-line message.
  Partition(int device, int64_t sms);
  ~Partition();
  Partition(const Partition&) = delete;
  Partition& operator=(const Partition&) = delete;

  int64_t sms() const { return sms_; }  // SMs granted (the plan's and cuBLAS's SM count)
  cudaStream_t stream() const { return stream_; }
  bool green() const { return green_ != nullptr; }

 private:
  int64_t sms_ = 0;
  CUgreenCtx green_ = nullptr;
  CUcontext previous_ = nullptr;
  cudaStream_t stream_ = nullptr;
};

// Device SM count (the whole-device "partition").
int64_t device_sms(int device);

// Checks a requested partition size: whole device, or a multiple of the green-context granularity
// (8 SMs on sm_90) below it. Throws std::invalid_argument otherwise. Host-only, no CUDA calls.
void check_partition_request(int64_t sms, int64_t device_sms);

}  // namespace lw::bench
