// Per-CTA and per-segment trace records the traced kernel writes (one thread, no atomics) and the
// host reads back; %globaltimer nanoseconds. Plain structs shared by device and host code.
#pragma once
#include <cstdint>

namespace lw::cuda {

struct CtaTrace {
  int32_t smid = -1;     // %smid of the SM the CTA ran on
  int32_t segments = 0;  // segments the CTA executed
  uint64_t t_entry = 0;  // kernel entry (the CTA's first instruction)
  uint64_t t_exit = 0;   // after the last segment and the drain of its stores
};

struct SegmentTrace {
  int64_t work_id = 0;
  int64_t tile = 0;
  int64_t k_begin = 0;
  int64_t k_end = 0;
  uint64_t t_start = 0;      // segment start (before the MAC loop)
  uint64_t t_mac_end = 0;    // MAC loop done
  uint64_t t_wait_end = 0;   // t_mac_end + total time spent spinning on flags
  uint64_t t_fixup_end = 0;  // partial stored / accumulated / reduced, flags signalled
  uint64_t t_end = 0;        // epilogue done (== t_fixup_end when there is none)
};

// Where the traced kernel writes: ctas[cta], segments[cta * max_segments + i].
struct TraceBuffers {
  CtaTrace* ctas = nullptr;
  SegmentTrace* segments = nullptr;
  int64_t max_segments = 0;
};

}  // namespace lw::cuda
