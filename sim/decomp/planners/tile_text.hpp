// Tile and cluster shapes as text ("128x256x64", "1x1") and the kernel-tile filter of `best`:
// parsing with one-line errors, printing, and checking a tile list against kernel_configs.hpp.
#pragma once
#include <string>
#include <vector>

#include "sim/decomp/kernel_configs.hpp"

namespace lw {

std::string tile_text(const TileShape& t);        // "128x256x64"
std::string cluster_text(const ClusterShape& c);  // "1x1"

// "MxNxK" -> TileShape; throws std::invalid_argument (one line) on malformed text.
TileShape parse_tile_text(const std::string& text);

// "128x120x64,128x128x64" -> those tiles, each one the kernels have (kKernelTiles), in the
// order given; "" -> every kernel tile. Throws on a malformed tile or one the kernels lack.
std::vector<TileShape> parse_kernel_tiles(const std::string& list);

// Every kernel tile as "a, b, c" (for error messages and --help).
std::string kernel_tiles_text();

}  // namespace lw
