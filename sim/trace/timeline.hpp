// The timeline schema every executor fills: one record per executed segment with the times its
// phases end. The simulator, the traced CUDA kernel and the trace writers all use this struct.
#pragma once
#include <cstdint>

#include "sim/decomp/walk.hpp"

namespace lw {

struct SegmentRecord {
  int64_t cta = 0;
  int64_t sm = 0;
  int32_t launch = 0;  // 0 = main kernel, 1 = separate reduction kernel
  Segment seg;
  double t_start = 0;      // segment begins (MAC loop starts)
  double t_mac_end = 0;    // MAC loop done
  double t_wait_end = 0;   // t_mac_end + total time spent waiting on flags
  double t_fixup_end = 0;  // partial stored / accumulated / loaded (== t_mac_end for Whole)
  double t_end = 0;        // epilogue done (== t_fixup_end when there is none)
};

}  // namespace lw
