// Timed kernel runs from configs/measurements/*.csv (written by lastwave-bench): reading with
// one-line file:line errors, and the deterministic train / held-out split by shape.
#pragma once
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "sim/decomp/planners/planners.hpp"

namespace lw {

struct Measurement {
  Problem problem;
  int64_t sms = 0;
  std::string schedule;   // lastwave schedule name (CSV column "decomposition")
  std::string reduction;  // "deterministic" | "atomic"
  int64_t grid = 0;
  TileShape tile{0, 0, 0};     // CSV column "tile" (MxNxK); 0x0x0 = not given (calibrate's --tile)
  ClusterShape cluster{1, 1};  // CSV column "cluster" (MxN); 1x1 when the file has none
  // CSV column "consumers": "pingpong" or "cooperative", the wgmma form that ran ("": not given,
  // or not a wgmma row).
  std::string consumers;
  double median_us = 0, p10_us = 0, p90_us = 0;
  std::string file;
  int64_t line = 0;
};

// What makes two rows time the same configuration: m, n, k, SMs, decomposition, reduction, tile
// and cluster.
using ConfigKey = std::tuple<int64_t, int64_t, int64_t, int64_t, std::string, std::string, int64_t,
                             int64_t, int64_t, int64_t, int64_t>;
ConfigKey config_key(const Measurement& m);

// Columns a measurements file must have (others are ignored).
const std::vector<std::string>& required_measurement_columns();

// Reads one CSV. Rows with ok=0 (when that column exists) are skipped and counted in *skipped.
// Throws std::invalid_argument "FILE:LINE: ..." on a missing column, a non-numeric or non-finite
// value, an unknown decomposition, reduction or consumer form, a swizzle other than 1.
std::vector<Measurement> read_measurements(const std::string& path, int64_t* skipped = nullptr);

// Reads all files; also rejects duplicate (m, n, k, sms, decomposition, reduction, tile, cluster)
// rows, naming
// both lines.
std::vector<Measurement> read_all_measurements(const std::vector<std::string>& paths,
                                               int64_t* skipped = nullptr);

// True when the shape (m, n, k) falls in the held-out split: a hash of the shape and the seed,
// mapped to [0, 1), below `holdout`. Every SM count and decomposition of a shape lands together.
bool held_out(const Problem& p, double holdout, uint64_t seed);

}  // namespace lw
