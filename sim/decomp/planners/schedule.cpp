// Parsing of schedule names and their dispatch to the planners.
#include "sim/decomp/planners/schedule.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace lw {

namespace {

// Parses the integer argument after "prefix:"; throws on junk or values < 1.
int64_t parse_count(const std::string& name, const std::string& arg) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(arg.c_str(), &end, 10);
  if (arg.empty() || *end != '\0' || errno != 0 || v < 1) {
    throw std::invalid_argument("schedule '" + name + "': expected a positive integer after ':'");
  }
  return v;
}

struct Parsed {
  std::string base;
  int64_t arg = 0;  // 0 = none given
};

Parsed split_name(const std::string& name) {
  Parsed p;
  const auto colon = name.find(':');
  p.base = name.substr(0, colon);
  if (colon != std::string::npos) p.arg = parse_count(name, name.substr(colon + 1));
  return p;
}

bool takes_arg(const std::string& base) {
  return base == "splitk" || base == "splitk-sep" || base == "splitk-dsm" || base == "streamk" ||
         base == "cutlass-splitk";
}
bool needs_arg(const std::string& base) { return base != "streamk" && takes_arg(base); }

// The catalog's names without their argument ("splitk:S" -> "splitk").
const std::vector<std::string>& catalog_bases() {
  static const std::vector<std::string> bases = [] {
    std::vector<std::string> out;
    for (const auto& h : schedule_catalog()) {
      const std::string name = h.name;
      out.push_back(name.substr(0, name.find_first_of(":[")));
    }
    return out;
  }();
  return bases;
}

void check(const std::string& name, const Parsed& p) {
  const auto& bases = catalog_bases();
  const bool known = std::find(bases.begin(), bases.end(), p.base) != bases.end();
  if (!known || p.base == "best") {
    if (p.base == "best" && p.arg == 0) return;
    throw std::invalid_argument("unknown schedule '" + name + "'");
  }
  if (p.arg != 0 && !takes_arg(p.base)) {
    throw std::invalid_argument("schedule '" + name + "' takes no ':' argument");
  }
  if (p.arg == 0 && needs_arg(p.base)) {
    throw std::invalid_argument("schedule '" + name + "' needs a split count, e.g. " + p.base +
                                ":4");
  }
}

}  // namespace

const std::vector<ScheduleHelp>& schedule_catalog() {
  static const std::vector<ScheduleHelp> catalog = {
      {"dp", "data-parallel: one CTA per tile, hardware dispatch in waves"},
      {"dp-persistent", "data-parallel, min(tiles, resident CTAs) persistent CTAs"},
      {"splitk:S", "S CTAs per tile; the final split reduces in-kernel"},
      {"splitk-sep:S", "S CTAs per tile store partials; a second launch reduces"},
      {"splitk-dsm:S", "S CTAs per tile as one cluster (S <= 8); partials meet in shared memory"},
      {"streamk[:G]", "paper Stream-K, G units (default one per SM), k=0 owner reduces"},
      {"cutlass", "CUTLASS SM90 StreamKScheduler, Heuristic mode"},
      {"cutlass-dp", "CUTLASS SM90 scheduler forced to DataParallel"},
      {"cutlass-streamk", "CUTLASS SM90 scheduler forced to StreamK"},
      {"cutlass-splitk:S", "CUTLASS SM90 scheduler forced to SplitK with S splits"},
      {"cutlass-seed", "the seed's simplified CUTLASS heuristic + hybrid"},
      {"two-tile", "paper 5.2: two-tile Stream-K + data-parallel"},
      {"best", "(simulator only) the fastest of the others under the cost model"},
  };
  return catalog;
}

Planned plan_schedule(const std::string& name, const Problem& problem, const TileShape& tile,
                      const GpuShape& gpu, Reduction reduction) {
  const Parsed p = split_name(name);
  check(name, p);
  if (p.base == "dp") return plan_data_parallel(problem, tile, gpu, false);
  if (p.base == "dp-persistent") return plan_data_parallel(problem, tile, gpu, true);
  if (p.base == "splitk") return plan_split_k(problem, tile, gpu, p.arg, reduction, false);
  if (p.base == "splitk-sep") return plan_split_k(problem, tile, gpu, p.arg, reduction, true);
  if (p.base == "splitk-dsm") return plan_split_k_cluster(problem, tile, gpu, p.arg);
  if (p.base == "streamk") return plan_stream_k(problem, tile, gpu, p.arg, reduction);
  if (p.base == "cutlass") {
    return plan_cutlass(problem, tile, gpu, CutlassMode::Heuristic, 1, reduction);
  }
  if (p.base == "cutlass-dp") {
    return plan_cutlass(problem, tile, gpu, CutlassMode::DataParallel, 1, reduction);
  }
  if (p.base == "cutlass-streamk") {
    return plan_cutlass(problem, tile, gpu, CutlassMode::StreamK, 1, reduction);
  }
  if (p.base == "cutlass-splitk") {
    return plan_cutlass(problem, tile, gpu, CutlassMode::SplitK, p.arg, reduction);
  }
  if (p.base == "cutlass-seed") return plan_cutlass_seed(problem, tile, gpu);
  if (p.base == "two-tile") return plan_two_tile(problem, tile, gpu, reduction);
  throw std::invalid_argument("schedule '" + name + "' cannot be planned directly");
}

Planned plan_schedule(const std::string& name, const Problem& problem, const TileShape& tile,
                      const GpuShape& gpu, Reduction reduction, const ClusterShape& cluster) {
  if (cluster.m < 1 || cluster.n < 1) {
    throw std::invalid_argument("cluster extents must be >= 1");
  }
  if (cluster.m == 1 && cluster.n == 1) return plan_schedule(name, problem, tile, gpu, reduction);
  if (cluster_reduce_splits(name) > 0) {
    throw std::invalid_argument("schedule '" + name +
                                "' runs without a multicast cluster: its clusters are the splits");
  }
  const int64_t resident = resident_clusters(gpu, cluster);
  if (resident < 1) {
    throw std::invalid_argument("no " + std::to_string(cluster.m) + "x" +
                                std::to_string(cluster.n) + " cluster fits on " +
                                std::to_string(gpu.sms) + " SMs");
  }
  const TileShape cluster_tile{tile.m * cluster.m, tile.n * cluster.n, tile.k};
  Planned out = plan_schedule(name, problem, cluster_tile, GpuShape{resident, 1, 0}, reduction);
  out.plan.tile = tile;
  out.plan.cluster = cluster;
  return out;
}

int64_t resident_clusters(const GpuShape& gpu, const ClusterShape& cluster) {
  if (gpu.max_active_clusters > 0) return gpu.max_active_clusters;
  return resident_reduce_clusters(gpu, cluster.m * cluster.n);
}

int64_t cluster_reduce_splits(const std::string& name) {
  const Parsed p = split_name(name);
  return p.base == "splitk-dsm" ? p.arg : 0;
}

int64_t resident_reduce_clusters(const GpuShape& gpu, int64_t size) {
  const int64_t even = gpu.sms * gpu.ctas_per_sm / size;
  const int64_t limit = size <= kMaxClusterCtas ? gpu.clusters_by_size[size] : 0;
  return limit > 0 ? std::min(limit, even) : even;
}

std::vector<std::string> parse_schedule_list(const std::string& list) {
  std::vector<std::string> names;
  std::string::size_type start = 0;
  while (start <= list.size()) {
    const auto comma = list.find(',', start);
    const std::string name =
        list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty()) throw std::invalid_argument("empty schedule name in '" + list + "'");
    check(name, split_name(name));
    names.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return names;
}

Reduction parse_reduction(const std::string& text) {
  if (text == "deterministic") return Reduction::Deterministic;
  if (text == "atomic") return Reduction::Atomic;
  throw std::invalid_argument("unknown reduction '" + text + "' (expected deterministic|atomic)");
}

}  // namespace lw
