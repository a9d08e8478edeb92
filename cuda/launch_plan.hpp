// Host-only launch logic of the GEMM kernels, free of CUDA calls so CI can test it: checks a Plan
// against the kernel's tile and the partition's co-residency limit, and sizes grid, workspace,
// flags and trace buffers. The CUDA launcher (gemm.hpp) feeds it occupancy and SM counts.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/decomp/walk.hpp"

namespace lw::cuda {

// What the launcher knows about the device part it launches on.
struct DeviceFacts {
  int64_t partition_sms = 0;  // SMs of the partition (green context), not the device attribute
  int64_t ctas_per_sm = 0;    // cudaOccupancyMaxActiveBlocksPerMultiprocessor of the kernel
  int64_t max_grid_x = 2147483647;  // cudaDevAttrMaxGridDimX
  int64_t max_active_clusters = 0;  // cudaOccupancyMaxActiveClusters (plans with clusters)
  // Plans that reduce in distributed shared memory (reduce_cluster_size > 0): the kernel's own
  // dynamic shared memory and the most a CTA may have (cudaDevAttrMaxSharedMemoryPerBlockOptin).
  int64_t kernel_smem_bytes = 0;
  int64_t max_smem_bytes = 0;
};

struct LaunchShape {
  int64_t grid = 0;            // main launch CTAs (plan.grid x cluster size)
  int64_t reduction_grid = 0;  // separate-reduction launch CTAs (0 = none), x cluster size
  int64_t workspace_bytes = 0;
  int64_t flag_bytes = 0;
  int64_t max_segments = 0;   // most segments any CTA of the main launch walks (trace rows)
  int64_t resident_ctas = 0;  // partition_sms * ctas_per_sm
  // Launch clusters of this many CTAs (1 x splits, a tile's splits) that reduce through the owner's
  // shared memory (reduce_cluster_size; 0 = none), and the dynamic shared memory each CTA adds.
  int64_t reduce_cluster = 0;
  int64_t reduce_smem_bytes = 0;
};

// Where a cluster_reduce plan's owner receives its peers' partials, past the kernel's own dynamic
// shared memory: an mbarrier (kClusterReduceBarrierBytes) then (splits - 1) fp32 CTA tiles.
int64_t cluster_reduce_bytes(const Plan& plan);

// The kernels are compiled for sm_90a only (wgmma, TMA multicast, setmaxnreg: Hopper's
// architecture-specific features), which runs on devices of compute capability 9.0 and no other.
inline constexpr int kKernelCcMajor = 9;
inline constexpr int kKernelCcMinor = 0;
// Why the kernels cannot run on device `name` of compute capability major.minor (one line), or
// empty when they can.
std::string device_refusal(int major, int minor, const std::string& name);

// Checks that `plan` can run on the kernel and device part; throws std::invalid_argument with a
// one-line reason otherwise (wrong tile, empty or oversized grid, persistent grid that is not
// co-resident: its CTAs wait on each other, so launching it could deadlock; a cluster_reduce plan
// whose partials do not fit the shared memory beside the kernel's, or whose cluster cannot be
// resident).
LaunchShape plan_launch(const Plan& plan, const DeviceFacts& facts);

// Segments of each plan CTA of the main launch, in execution order (the host side of the walk);
// launch CTA c of a clustered plan walks entry c / cluster_size(plan).
std::vector<std::vector<Segment>> host_walk(const Plan& plan);

// Most segments of any CTA in the main launch.
int64_t max_segments_per_cta(const Plan& plan);

// The staged epilogue's store width: the widest store (bytes, a power of two from `elem_bytes` to
// 16) that every row of an `n`-column row-major C at address `c_address` is aligned to.
int32_t widest_row_store(uintptr_t c_address, int64_t n, int64_t elem_bytes);

}  // namespace lw::cuda
