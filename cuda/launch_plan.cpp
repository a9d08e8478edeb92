// Host-only launch checks and sizes for the GEMM kernels (see launch_plan.hpp).
#include "cuda/launch_plan.hpp"

#include <stdexcept>
#include <string>

#include "sim/decomp/planners/config_list.hpp"

namespace lw::cuda {

namespace {

constexpr int64_t kFloatBytes = 4;
constexpr int64_t kFlagBytes = 4;  // int32 flag per workspace slot

std::string num(int64_t v) { return std::to_string(v); }

// A cluster_reduce plan: each tile's splits are one launch cluster (no multicast cluster beside
// it, no persistence, whole clusters in the grid) and the owner's shared memory holds the peers'
// partials beside the kernel's own; at least one such cluster must fit on the device.
void check_reduce_cluster(const Plan& plan, const DeviceFacts& facts, LaunchShape& r) {
  const int64_t size = reduce_cluster_size(plan);
  if (clustered(plan) || plan.persistent || plan.split_mode != SplitMode::FixedSplit ||
      plan.storage != FixupStorage::Slots || plan.separate_reduction ||
      plan.split_tiles != plan.tiles || size < 2 || size > kMaxClusterCtas ||
      plan.grid != plan.tiles * size) {
    throw std::invalid_argument(
        "a shared-memory split-K plan needs 2-" + num(kMaxClusterCtas) +
        " splits of every tile, one CTA each, without a multicast cluster or persistence");
  }
  r.reduce_cluster = size;
  r.reduce_smem_bytes = cluster_reduce_bytes(plan);
  const int64_t total = facts.kernel_smem_bytes + r.reduce_smem_bytes;
  if (total > facts.max_smem_bytes) {
    throw std::invalid_argument("splitk-dsm:" + num(size) + " on " + tile_text(plan.tile) +
                                " needs " + num(total) + " bytes of shared memory per CTA, " +
                                num(facts.max_smem_bytes) + " available");
  }
  if (facts.max_active_clusters < 1) {
    throw std::invalid_argument("no cluster of " + num(size) + " CTAs of " + tile_text(plan.tile) +
                                " fits on this device part");
  }
}

}  // namespace

int64_t cluster_reduce_bytes(const Plan& plan) {
  const int64_t size = reduce_cluster_size(plan);
  if (size < 2) return 0;
  return kClusterReduceBarrierBytes + (size - 1) * cluster_reduce_partial_bytes(plan.tile);
}

std::string device_refusal(int major, int minor, const std::string& name) {
  if (major == kKernelCcMajor && minor == kKernelCcMinor) return "";
  return "the kernels are built for sm_90a (Hopper, compute capability " + num(kKernelCcMajor) +
         "." + num(kKernelCcMinor) + ") and cannot run on " + name + " (compute capability " +
         num(major) + "." + num(minor) + ")";
}

std::vector<std::vector<Segment>> host_walk(const Plan& plan) {
  std::vector<std::vector<Segment>> out(static_cast<size_t>(plan.grid));
  for (int64_t c = 0; c < plan.grid; ++c) {
    CtaWalk w;
    walk_begin(plan, c, w);
    Segment s;
    while (walk_next(plan, w, s)) out[static_cast<size_t>(c)].push_back(s);
  }
  return out;
}

int64_t max_segments_per_cta(const Plan& plan) {
  int64_t most = 0;
  for (int64_t c = 0; c < plan.grid; ++c) {
    CtaWalk w;
    walk_begin(plan, c, w);
    Segment s;
    int64_t n = 0;
    while (walk_next(plan, w, s)) ++n;
    most = n > most ? n : most;
  }
  return most;
}

LaunchShape plan_launch(const Plan& plan, const DeviceFacts& facts) {
  if (!kernel_has_config(plan.tile, plan.cluster)) {
    throw std::invalid_argument("plan tile " + tile_text(plan.tile) + " cluster " +
                                cluster_text(plan.cluster) +
                                " is not one the kernels have (tiles " + kernel_tiles_text() +
                                "; clusters " + kernel_clusters_text() + ")");
  }
  constexpr int64_t kMaxDim = 2147483647;  // the kernel indexes M, N, K as int32
  if (plan.problem.m > kMaxDim || plan.problem.n > kMaxDim || plan.problem.k > kMaxDim) {
    throw std::invalid_argument("problem dimension exceeds 2^31-1");
  }
  if (facts.partition_sms < 1 || facts.ctas_per_sm < 1) {
    throw std::invalid_argument("kernel cannot be resident: " + num(facts.partition_sms) +
                                " SMs x " + num(facts.ctas_per_sm) + " CTAs per SM");
  }
  if (plan.grid < 1) throw std::invalid_argument("plan has an empty grid");
  const int64_t size = cluster_size(plan);
  if (plan.grid * size > facts.max_grid_x || reduction_grid(plan) * size > facts.max_grid_x) {
    throw std::invalid_argument("grid of " + num(plan.grid * size) +
                                " CTAs exceeds the device limit " + num(facts.max_grid_x));
  }
  LaunchShape r;
  r.resident_ctas = facts.partition_sms * facts.ctas_per_sm;
  if (plan.persistent && size == 1 && plan.grid > r.resident_ctas) {
    throw std::invalid_argument("persistent grid of " + num(plan.grid) +
                                " CTAs is not co-resident: at most " + num(facts.ctas_per_sm) +
                                " CTA(s)/SM x " + num(facts.partition_sms) +
                                " SMs; refusing to launch (its CTAs wait on each other)");
  }
  if (plan.persistent && size > 1 && plan.grid > facts.max_active_clusters) {
    throw std::invalid_argument(
        "persistent grid of " + num(plan.grid) + " " + cluster_text(plan.cluster) +
        " clusters is not co-resident: at most " + num(facts.max_active_clusters) +
        " active clusters; refusing to launch (its CTAs wait on each other)");
  }
  if (reduce_cluster_size(plan) > 0) check_reduce_cluster(plan, facts, r);
  r.grid = plan.grid * size;
  r.reduction_grid = reduction_grid(plan) * size;
  // cluster_reduce slots live in the owner's shared memory: no workspace, no flags.
  const int64_t slots = r.reduce_cluster > 0 ? 0 : plan.workspace_slots * size;
  r.workspace_bytes = slots * plan.tile.m * plan.tile.n * kFloatBytes;
  r.flag_bytes = slots * kFlagBytes;
  r.max_segments = max_segments_per_cta(plan);
  return r;
}

int32_t widest_row_store(uintptr_t c_address, int64_t n, int64_t elem_bytes) {
  constexpr int64_t kWidestStoreBytes = 16;  // one st.global.v4.b32
  int64_t bytes = kWidestStoreBytes;
  while (bytes > elem_bytes && ((n * elem_bytes) % bytes != 0 || c_address % bytes != 0)) {
    bytes /= 2;
  }
  return static_cast<int32_t>(bytes);
}

}  // namespace lw::cuda
