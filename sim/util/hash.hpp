// splitmix64: the one integer mixer (host and device) behind lastwave's deterministic hashes
// (the calibration's train / held-out split, the benchmark's random operands).
#pragma once
#include <cstdint>

#include "sim/decomp/hd.hpp"

namespace lw {

// The splitmix64 finaliser (Steele, Lea, Flood 2014): a bijection of 64-bit words.
LW_HD uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace lw
