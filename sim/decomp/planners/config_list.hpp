// Parsing of tile and cluster lists ("128x256,256x128x64", "1x1,2x1") against the configurations
// the kernels have (sim/decomp/kernel_configs.hpp); shared by lastwave and lastwave-bench.
#pragma once
#include <string>
#include <vector>

#include "sim/decomp/kernel_configs.hpp"

namespace lw {

// "MxN" (k = 64) or "MxNxK" -> TileShape; throws std::invalid_argument on malformed text.
TileShape parse_tile_text(const std::string& text);

// Comma list of tiles, each one the kernels have; throws std::invalid_argument (one line, naming
// the tile and listing the kernels' tiles) otherwise. "all" = every kernel tile.
std::vector<TileShape> parse_kernel_tiles(const std::string& list);

// Comma list of "MxN" clusters, each one the kernels launch with; throws otherwise.
std::vector<ClusterShape> parse_kernel_clusters(const std::string& list);

// "128x256x64" and "1x1".
std::string tile_text(const TileShape& t);
std::string cluster_text(const ClusterShape& c);
// "1x1, 2x1" / "64x128x64, 128x128x64": a list of clusters or tiles, for messages.
std::string cluster_list_text(const std::vector<ClusterShape>& clusters);
std::string tile_list_text(const std::vector<TileShape>& tiles);

// "64x128x64, 64x256x64, ..." / "1x1": the kernels' lists, for messages and --help.
std::string kernel_tiles_text();
std::string kernel_clusters_text();

}  // namespace lw
