// Tile/cluster text conversions and the kernel-tile filter (see tile_text.hpp).
#include "sim/decomp/planners/tile_text.hpp"

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace lw {

namespace {

int64_t parse_extent(const std::string& part, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(part.c_str(), &end, 10);
  if (part.empty() || *end != '\0' || errno != 0 || v < 1) {
    throw std::invalid_argument("bad tile '" + text + "' (expected MxNxK, positive integers)");
  }
  return v;
}

}  // namespace

std::string tile_text(const TileShape& t) {
  return std::to_string(t.m) + "x" + std::to_string(t.n) + "x" + std::to_string(t.k);
}

std::string cluster_text(const ClusterShape& c) {
  return std::to_string(c.m) + "x" + std::to_string(c.n);
}

TileShape parse_tile_text(const std::string& text) {
  TileShape t;
  int64_t* fields[3] = {&t.m, &t.n, &t.k};
  std::stringstream ss(text);
  std::string part;
  int i = 0;
  while (std::getline(ss, part, 'x')) {
    if (i == 3) throw std::invalid_argument("bad tile '" + text + "' (expected MxNxK)");
    *fields[i++] = parse_extent(part, text);
  }
  if (i != 3 || text.back() == 'x') {
    throw std::invalid_argument("bad tile '" + text + "' (expected MxNxK)");
  }
  return t;
}

std::string kernel_tiles_text() {
  std::string out;
  for (const auto& t : kKernelTiles) out += (out.empty() ? "" : ", ") + tile_text(t);
  return out;
}

std::vector<TileShape> parse_kernel_tiles(const std::string& list) {
  if (list.empty()) return {std::begin(kKernelTiles), std::end(kKernelTiles)};
  std::vector<TileShape> tiles;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const TileShape t = parse_tile_text(item);
    if (kernel_tile_index(t) < 0) {
      throw std::invalid_argument("tile " + item +
                                  " is not one the kernels have: " + kernel_tiles_text());
    }
    tiles.push_back(t);
  }
  if (tiles.empty() || list.back() == ',') {
    throw std::invalid_argument("bad tile list '" + list + "' (expected MxNxK[,MxNxK...])");
  }
  return tiles;
}

}  // namespace lw
