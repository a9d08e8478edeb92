// Validation of requested SM partition sizes (host-only; see partition.hpp).
#include <stdexcept>
#include <string>

#include "cuda/bench/partition.hpp"

namespace lw::bench {

namespace {
constexpr int64_t kGreenGranularitySms = 8;  // sm_90 minSmPartitionSize / coscheduled alignment
}

void check_partition_request(int64_t sms, int64_t device_sms) {
  if (sms == device_sms) return;
  if (sms < kGreenGranularitySms || sms > device_sms || sms % kGreenGranularitySms != 0) {
    throw std::invalid_argument("--sms " + std::to_string(sms) + ": expected " +
                                std::to_string(device_sms) + " (whole device) or a multiple of " +
                                std::to_string(kGreenGranularitySms) + " below it");
  }
}

}  // namespace lw::bench
