// The --configs reader (see config_csv.hpp).
#include "cuda/bench/config_csv.hpp"

#include <algorithm>
#include <array>
#include <sstream>
#include <stdexcept>

#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/util/atomic_file.hpp"
#include "sim/util/csv_cells.hpp"

namespace lw::bench {

namespace {

constexpr std::array<const char*, 3> kColumns = {"tile", "cluster", "decomposition"};

bool same_config(const BenchConfig& a, const BenchConfig& b) {
  return same_tile(a.tile, b.tile) && same_cluster(a.cluster, b.cluster) &&
         a.schedule == b.schedule;
}

// One data row's configuration; `cols` are the header's positions of kColumns.
BenchConfig config_of(const std::vector<std::string>& cells, const std::array<size_t, 3>& cols) {
  for (const size_t c : cols) {
    if (c >= cells.size() || cells[c].empty()) throw std::invalid_argument("missing value");
  }
  const auto tiles = parse_kernel_tiles(cells[cols[0]]);
  const auto clusters = parse_kernel_clusters(cells[cols[1]]);
  const auto schedules = parse_schedule_list(cells[cols[2]]);
  if (tiles.size() != 1 || clusters.size() != 1 || schedules.size() != 1) {
    throw std::invalid_argument("one tile, one cluster and one decomposition per row");
  }
  if (schedules[0] == "best" || schedules[0] == "auto") {
    throw std::invalid_argument("decomposition '" + schedules[0] + "' is not a kernel config");
  }
  return BenchConfig{tiles[0], clusters[0], schedules[0]};
}

// The distinct values of one field of `configs`, in the order first seen.
template <class T, class Same>
std::vector<T> distinct_fields(const std::vector<BenchConfig>& configs, T BenchConfig::*field,
                               Same same) {
  std::vector<T> out;
  for (const auto& c : configs) {
    const auto seen = [&](const T& v) { return same(v, c.*field); };
    if (std::none_of(out.begin(), out.end(), seen)) out.push_back(c.*field);
  }
  return out;
}

}  // namespace

std::vector<BenchConfig> parse_configs_csv(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  bool have_header = false;
  std::array<size_t, 3> cols{};
  std::vector<BenchConfig> configs;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string t = trim_csv_cell(line);
    if (t.empty() || t[0] == '#') continue;
    const auto cells = split_csv_cells(t);
    try {
      if (!have_header) {
        for (size_t i = 0; i < kColumns.size(); ++i) {
          const auto it = std::find(cells.begin(), cells.end(), kColumns[i]);
          if (it == cells.end()) {
            throw std::invalid_argument("header must name columns tile, cluster and decomposition");
          }
          cols[i] = static_cast<size_t>(it - cells.begin());
        }
        have_header = true;
        continue;
      }
      const BenchConfig c = config_of(cells, cols);
      const auto seen = [&](const BenchConfig& o) { return same_config(o, c); };
      if (std::none_of(configs.begin(), configs.end(), seen)) configs.push_back(c);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(name + ":" + std::to_string(lineno) + ": " + e.what());
    }
  }
  if (configs.empty()) throw std::invalid_argument(name + ": no configurations");
  return configs;
}

std::vector<BenchConfig> read_configs_csv(const std::string& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const std::runtime_error& e) {
    throw std::invalid_argument(e.what());
  }
  return parse_configs_csv(text, path);
}

std::vector<TileShape> config_tiles(const std::vector<BenchConfig>& configs) {
  return distinct_fields(configs, &BenchConfig::tile, same_tile);
}

std::vector<ClusterShape> config_clusters(const std::vector<BenchConfig>& configs) {
  return distinct_fields(configs, &BenchConfig::cluster, same_cluster);
}

std::vector<std::string> config_schedules(const std::vector<BenchConfig>& configs) {
  return distinct_fields(configs, &BenchConfig::schedule,
                         [](const std::string& a, const std::string& b) { return a == b; });
}

}  // namespace lw::bench
