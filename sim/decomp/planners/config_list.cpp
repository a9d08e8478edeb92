// Tile and cluster list parsing against the kernels' configurations (see config_list.hpp).
#include "sim/decomp/planners/config_list.hpp"

#include <cstdlib>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace lw {

namespace {

constexpr int64_t kMaxTileExtent = 1 << 16;  // elements; far above any real tile, below overflow

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, sep)) parts.push_back(part);
  if (!text.empty() && text.back() == sep) parts.emplace_back();
  return parts;
}

int64_t parse_extent(const std::string& text, const std::string& whole, const char* what) {
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > kMaxTileExtent) {
    throw std::invalid_argument(std::string("bad ") + what + " '" + whole + "'");
  }
  return v;
}

}  // namespace

TileShape parse_tile_text(const std::string& text) {
  const auto parts = split(text, 'x');
  if (parts.size() != 2 && parts.size() != 3) {
    throw std::invalid_argument("bad tile '" + text + "' (expected MxN or MxNxK)");
  }
  TileShape t;
  t.m = parse_extent(parts[0], text, "tile");
  t.n = parse_extent(parts[1], text, "tile");
  t.k = parts.size() == 3 ? parse_extent(parts[2], text, "tile") : kDefaultTile.k;
  return t;
}

std::vector<TileShape> parse_kernel_tiles(const std::string& list) {
  if (list == "all") return {std::begin(kKernelTiles), std::end(kKernelTiles)};
  std::vector<TileShape> out;
  for (const std::string& item : split(list, ',')) {
    const TileShape t = parse_tile_text(item);
    if (kernel_tile_index(t) < 0) {
      throw std::invalid_argument("tile " + tile_text(t) + " is not one the kernels have (" +
                                  kernel_tiles_text() + ")");
    }
    out.push_back(t);
  }
  if (out.empty()) throw std::invalid_argument("empty tile list");
  return out;
}

std::vector<ClusterShape> parse_kernel_clusters(const std::string& list) {
  std::vector<ClusterShape> out;
  for (const std::string& item : split(list, ',')) {
    const auto parts = split(item, 'x');
    if (parts.size() != 2) throw std::invalid_argument("bad cluster '" + item + "' (expected MxN)");
    const ClusterShape c{parse_extent(parts[0], item, "cluster"),
                         parse_extent(parts[1], item, "cluster")};
    if (!kernel_has_cluster(c)) {
      throw std::invalid_argument("cluster " + cluster_text(c) + " is not one the kernels have (" +
                                  kernel_clusters_text() + ")");
    }
    out.push_back(c);
  }
  if (out.empty()) throw std::invalid_argument("empty cluster list");
  return out;
}

std::string tile_text(const TileShape& t) {
  return std::to_string(t.m) + "x" + std::to_string(t.n) + "x" + std::to_string(t.k);
}

std::string cluster_text(const ClusterShape& c) {
  return std::to_string(c.m) + "x" + std::to_string(c.n);
}

std::string tile_list_text(const std::vector<TileShape>& tiles) {
  std::string out;
  for (const TileShape& t : tiles) out += (out.empty() ? "" : ", ") + tile_text(t);
  return out;
}

std::string kernel_tiles_text() {
  return tile_list_text({std::begin(kKernelTiles), std::end(kKernelTiles)});
}

std::string cluster_list_text(const std::vector<ClusterShape>& clusters) {
  std::string out;
  for (const ClusterShape& c : clusters) out += (out.empty() ? "" : ", ") + cluster_text(c);
  return out;
}

std::string kernel_clusters_text() {
  return cluster_list_text({std::begin(kKernelClusters), std::end(kKernelClusters)});
}

}  // namespace lw
