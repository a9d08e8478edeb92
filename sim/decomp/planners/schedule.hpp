// Schedule names ("dp", "splitk:4", "streamk", "cutlass", ...) -> the planner that builds them.
// Shared by the `lastwave` CLI and `lastwave-bench`, so both accept exactly the same names.
#pragma once
#include <string>
#include <vector>

#include "sim/decomp/planners/planners.hpp"

namespace lw {

// Names accepted by plan_schedule, with a one-line description each (for --help).
struct ScheduleHelp {
  const char* name;
  const char* doc;
};
const std::vector<ScheduleHelp>& schedule_catalog();

// Builds the plan a schedule name denotes. Throws std::invalid_argument naming the bad schedule.
Planned plan_schedule(const std::string& name, const Problem& problem, const TileShape& tile,
                      const GpuShape& gpu, Reduction reduction);

// The same for a cluster of CTAs: the schedule is planned over cluster tiles (cluster.m x cluster.n
// CTA tiles) on the resident clusters (resident_clusters below), and the plan records the CTA tile
// and the cluster (plan.hpp). 1x1 is plan_schedule above.
Planned plan_schedule(const std::string& name, const Problem& problem, const TileShape& tile,
                      const GpuShape& gpu, Reduction reduction, const ClusterShape& cluster);

// Clusters of `cluster` resident at once on `gpu`: gpu.max_active_clusters where a device measured
// it, else the preset's gpu.clusters_by_size (at most an even share), else gpu.sms * ctas_per_sm /
// cluster size; 0 when none fits (plan_schedule refuses, best skips the cluster).
int64_t resident_clusters(const GpuShape& gpu, const ClusterShape& cluster);

// Clusters of `size` CTAs (a splitk-dsm tile's splits) resident at once on `gpu`: the preset's
// gpu.clusters_by_size or an even share, never gpu.max_active_clusters (which a device measured
// for the plan's multicast cluster); 0 when none fits.
int64_t resident_reduce_clusters(const GpuShape& gpu, int64_t size);

// S for a schedule named "splitk-dsm:S" (a tile's splits as one cluster), 0 for any other name.
int64_t cluster_reduce_splits(const std::string& name);

// Splits "a,b,c" and checks each name parses (without planning); throws on an unknown one.
std::vector<std::string> parse_schedule_list(const std::string& list);

// "deterministic" | "atomic" -> Reduction; throws otherwise.
Reduction parse_reduction(const std::string& text);

}  // namespace lw
