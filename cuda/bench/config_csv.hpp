// lastwave-bench --configs: the configurations to time, as a CSV whose header names the columns
// tile, cluster and decomposition (any order, other columns ignored, so a lastwave-bench output
// file is one); blank lines and '#' comments skipped. Host-only.
#pragma once
#include <string>
#include <vector>

#include "sim/decomp/kernel_configs.hpp"

namespace lw::bench {

struct BenchConfig {
  TileShape tile;
  ClusterShape cluster;
  std::string schedule;  // a parse_schedule_list name, e.g. "splitk-dsm:4"
};

// Each distinct (tile, cluster, decomposition) once, in the order first seen. Tiles and clusters
// must be ones the kernels have and decompositions ones lastwave-bench runs (not "best" or
// "auto"); a tile x cluster the kernels lack is a refused row at run time, as with --tile and
// --cluster. Throws std::invalid_argument naming `name` and the line on bad input or no rows.
std::vector<BenchConfig> parse_configs_csv(const std::string& text, const std::string& name);
// The same from a file (inflated when its name ends in ".gz").
std::vector<BenchConfig> read_configs_csv(const std::string& path);

// The distinct tiles, clusters and decompositions of `configs`, in the order first seen.
std::vector<TileShape> config_tiles(const std::vector<BenchConfig>& configs);
std::vector<ClusterShape> config_clusters(const std::vector<BenchConfig>& configs);
std::vector<std::string> config_schedules(const std::vector<BenchConfig>& configs);

}  // namespace lw::bench
