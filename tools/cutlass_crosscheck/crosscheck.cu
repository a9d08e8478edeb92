// Cross-check of lastwave's `cutlass` planner (sim/decomp) against CUTLASS's SM90
// PersistentTileSchedulerSm90StreamK: for each (M, N, K, sm_count) case, every CTA's sequence of
// work tiles (M_idx, N_idx, K_idx, k_tile_count, compute_epilogue) as produced by the CUTLASS
// scheduler is compared with lw::walk_begin/walk_next over lw::plan_cutlass(...).
//
// CUTLASS is NOT part of this repository: build against a local checkout with build.sh.
//
// One source, two builds (see build.sh):
//  * host build (g++ -x c++): CUTLASS_DEVICE expands to `inline`, so the scheduler's own static
//    device functions (get_current_work_for_linear_idx / continue_current_work_for_linear_idx)
//    run on the CPU, stepping exactly as fetch_next_work does. FastDivmod takes its host path
//    (exact division).
//  * device build (nvcc, sm_90a, LW_XCHECK_DEVICE): a kernel launched with the scheduler's grid
//    constructs PersistentTileSchedulerSm90StreamK in every CTA and walks it with
//    initial_work_tile_info / fetch_next_work, as the cooperative kernel does (device FastDivmod).
//
// Usage: crosscheck [--random N] [--targeted N] [--any-sms N] [--seed S] [--verbose] [--mutate]
//   --mutate: negative control, plans with min_piece = 7 instead of 8; must report mismatches.
// Exit status 0 iff every case matched.
#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#if !defined(__CUDACC__)
// Host build only: inert stand-ins for CUDA device built-ins that CUTLASS headers reference in
// non-template device code (barriers, pipelines). The scheduler walk never calls them.
#include <cuda_runtime_api.h>
#include <vector_types.h>
static uint3 threadIdx, blockIdx;
static dim3 blockDim, gridDim;
inline void __syncthreads() {}
inline void __syncwarp(unsigned = 0xffffffffu) {}
inline void __threadfence() {}
template <class T>
inline T atomicAdd(T* p, T v) {
  T o = *p;
  *p += v;
  return o;
}
template <class T>
inline T atomicCAS(T* p, T c, T v) {
  T o = *p;
  if (o == c) *p = v;
  return o;
}
#endif

#include "cute/tensor.hpp"
#include "cutlass/gemm/kernel/sm90_tile_scheduler_stream_k.hpp"
#include "cutlass/kernel_hardware_info.h"
#include "cutlass/version.h"
#include "sim/decomp/planners/planners.hpp"
#include "sim/decomp/walk.hpp"

using TileShape = cute::Shape<cute::_128, cute::_128, cute::_64>;
using ClusterShape = cute::Shape<cute::_1, cute::_1, cute::_1>;
using Sched =
    cutlass::gemm::kernel::detail::PersistentTileSchedulerSm90StreamK<TileShape, ClusterShape>;
using Params = Sched::Params;
using WorkTileInfo = Sched::WorkTileInfo;

struct Case {
  int m, n, k, sms;
  const char* tag;
};

// One work tile as seen by the kernel loop.
struct Rec {
  int32_t m, n, k_idx, k_count, epi;
  bool operator==(const Rec& o) const {
    return m == o.m && n == o.n && k_idx == o.k_idx && k_count == o.k_count && epi == o.epi;
  }
};

#if defined(__CUDACC__)
#define XC_HD __host__ __device__
#else
#define XC_HD
#endif

XC_HD static Rec make_rec(const WorkTileInfo& w, const Params& p) {
  return Rec{w.M_idx, w.N_idx, w.K_idx, static_cast<int32_t>(w.k_tile_count),
             Sched::compute_epilogue(w, p) ? 1 : 0};
}

struct Built {
  Params params;
  int grid = 0;  // gridDim.x * gridDim.y * gridDim.z
  dim3 grid3;
};

static Built build_params(const Case& c) {
  auto problem = cute::make_shape(c.m, c.n, c.k);
  cutlass::KernelHardwareInfo hw;
  hw.device_id = 0;
  hw.sm_count = c.sms;
  hw.max_active_clusters = 0;
  Sched::Arguments args;  // splits=1, max_swizzle=1, raster Heuristic, Deterministic, Heuristic
  args.splits = 1;
  args.max_swizzle_size = 1;
  args.raster_order = Sched::RasterOrderOptions::Heuristic;
  args.reduction_mode = Params::ReductionMode::Deterministic;
  args.decomposition_mode = Params::DecompositionMode::Heuristic;
  Built b;
  b.params =
      Sched::to_underlying_arguments(problem, TileShape{}, ClusterShape{}, hw, args, nullptr);
  b.grid3 = Sched::get_grid_shape(b.params, problem, TileShape{}, ClusterShape{}, hw, args);
  b.grid = static_cast<int>(b.grid3.x * b.grid3.y * b.grid3.z);
  return b;
}

// Linear work index of a CTA, as the scheduler's constructor computes it.
static uint64_t cta_linear_idx(const Params& p, dim3 blk, dim3 grid) {
  if (p.raster_order_ == Params::RasterOrder::AlongN)
    return uint64_t(blk.x) + uint64_t(blk.y) * grid.x;
  return uint64_t(blk.x) * grid.y + uint64_t(blk.y);
}

#if defined(LW_XCHECK_DEVICE)
#if !defined(__CUDACC__)
#error "LW_XCHECK_DEVICE needs nvcc"
#endif
// One thread per CTA walks the scheduler exactly like the cooperative kernel's consumer loop.
__global__ void walk_kernel(Params params, Rec* out, int cap, int* counts) {
  if (threadIdx.x != 0) return;
  Sched sched(params);
  const uint64_t lin = params.raster_order_ == Params::RasterOrder::AlongN
                           ? uint64_t(blockIdx.x) + uint64_t(blockIdx.y) * gridDim.x
                           : uint64_t(blockIdx.x) * gridDim.y + uint64_t(blockIdx.y);
  WorkTileInfo w = sched.initial_work_tile_info(ClusterShape{});
  int n = 0;
  while (w.is_valid()) {
    if (n < cap) out[lin * cap + n] = make_rec(w, params);
    ++n;
    if (n > 1000000) break;  // runaway guard
    auto [next, inc] = sched.fetch_next_work(w);
    (void)inc;
    w = next;
  }
  counts[lin] = n;
}

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                           \
    }                                                                                         \
  } while (0)

static std::vector<std::vector<Rec>> cutlass_walk(const Built& b, int cap) {
  Rec* d_out = nullptr;
  int* d_counts = nullptr;
  CK(cudaMalloc(&d_out, sizeof(Rec) * size_t(cap) * b.grid));
  CK(cudaMalloc(&d_counts, sizeof(int) * b.grid));
  walk_kernel<<<b.grid3, 32>>>(b.params, d_out, cap, d_counts);
  CK(cudaGetLastError());
  std::vector<Rec> out(size_t(cap) * b.grid);
  std::vector<int> counts(b.grid);
  CK(cudaMemcpy(out.data(), d_out, sizeof(Rec) * out.size(), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(counts.data(), d_counts, sizeof(int) * b.grid, cudaMemcpyDeviceToHost));
  CK(cudaFree(d_out));
  CK(cudaFree(d_counts));
  std::vector<std::vector<Rec>> walks(b.grid);
  for (int c = 0; c < b.grid; ++c) {
    const int n = counts[c];
    walks[c].assign(out.begin() + size_t(c) * cap,
                    out.begin() + size_t(c) * cap + std::min(n, cap));
    // Over-long walks: pad with a sentinel so the length still mismatches.
    for (int i = cap; i < n && i < cap + 1; ++i) walks[c].push_back(Rec{-9, -9, -9, -9, -9});
  }
  return walks;
}
#else
// Host replay of fetch_next_work with the scheduler's own static functions.
static std::vector<std::vector<Rec>> cutlass_walk(const Built& b, int cap) {
  std::vector<std::vector<Rec>> walks(b.grid);
  const dim3 in_cluster(0, 0, 0);
  for (unsigned by = 0; by < b.grid3.y; ++by) {
    for (unsigned bx = 0; bx < b.grid3.x; ++bx) {
      uint64_t lin = cta_linear_idx(b.params, dim3(bx, by, 0), b.grid3);
      uint32_t unit_iter_start = 0;
      WorkTileInfo w =
          Sched::get_current_work_for_linear_idx(unit_iter_start, lin, in_cluster, b.params);
      auto& out = walks[lin];
      while (w.is_valid()) {
        out.push_back(make_rec(w, b.params));
        if (int(out.size()) > cap) break;
        // fetch_next_work(w): continue the unit on a copy, else advance by the grid size.
        WorkTileInfo cont = w;
        if (Sched::continue_current_work_for_linear_idx(lin, unit_iter_start, in_cluster, cont,
                                                        b.params)) {
          w = cont;
          continue;
        }
        lin += uint64_t(b.grid);
        w = Sched::get_current_work_for_linear_idx(unit_iter_start, lin, in_cluster, b.params);
      }
    }
  }
  return walks;
}
#endif

// lastwave's walk for the same case, in the same record format.
static std::vector<std::vector<Rec>> lastwave_walk(const lw::Plan& p) {
  std::vector<std::vector<Rec>> walks(p.grid);
  for (int64_t c = 0; c < p.grid; ++c) {
    lw::CtaWalk w;
    lw::walk_begin(p, c, w);
    lw::Segment s;
    while (lw::walk_next(p, w, s)) {
      const bool epi = s.role == lw::Role::Whole || s.role == lw::Role::Final;
      walks[c].push_back(Rec{int32_t(lw::tile_coord_m(p, s.tile)),
                             int32_t(lw::tile_coord_n(p, s.tile)), int32_t(s.k_begin),
                             int32_t(s.k_end - s.k_begin), epi ? 1 : 0});
    }
  }
  return walks;
}

static const char* mode_of(const Params& p) {
  if (p.divmod_splits_.divisor > 1) return "SplitK";
  if (p.sk_units_ > 0) return "StreamK";
  return "DataParallel";
}

static void print_rec(const Rec* r) {
  if (!r) {
    std::printf("%-28s", "-");
    return;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "(m%d,n%d) k[%d,%d)%s", r->m, r->n, r->k_idx,
                r->k_idx + r->k_count, r->epi ? " EPI" : "");
  std::printf("%-28s", buf);
}

static bool g_mutate = false;

struct Result {
  bool match = true;
  bool grid_ok = true;
  int64_t first_cta = -1;
  size_t first_pos = 0;
  int64_t records = 0;
};

static Result compare(const Case& c, bool print_diff, int* mode_counts) {
  Result r;
  const Built b = build_params(c);
  lw::Planned planned = lw::plan_cutlass(lw::Problem{c.m, c.n, c.k}, lw::TileShape{128, 128, 64},
                                         lw::GpuShape{c.sms, 1}, lw::CutlassMode::Heuristic, 1,
                                         lw::Reduction::Deterministic);
  lw::Plan& p = planned.plan;
  if (g_mutate) p.min_piece = 7;  // negative control: the harness must notice this
  const char* mode = mode_of(b.params);
  mode_counts[mode[0] == 'D' ? 0 : mode[1] == 'p' ? 1 : 2]++;
  auto lwalk = lastwave_walk(p);
  size_t lmax = 0;
  for (auto& v : lwalk) lmax = std::max(lmax, v.size());
  const int cap = int(2 * lmax + 64);
  if (p.grid != b.grid) {
    r.match = false;
    r.grid_ok = false;
  }
  auto cwalk = cutlass_walk(b, cap);
  const int64_t ctas = std::max<int64_t>(p.grid, b.grid);
  for (int64_t cta = 0; cta < ctas && r.match; ++cta) {
    static const std::vector<Rec> empty;
    const auto& cw = cta < b.grid ? cwalk[cta] : empty;
    const auto& lwv = cta < p.grid ? lwalk[cta] : empty;
    r.records += int64_t(cw.size());
    if (cw.size() != lwv.size() || !std::equal(cw.begin(), cw.end(), lwv.begin())) {
      r.match = false;
      r.first_cta = cta;
      size_t i = 0;
      while (i < cw.size() && i < lwv.size() && cw[i] == lwv[i]) ++i;
      r.first_pos = i;
    }
  }
  if (print_diff || !std::strcmp(c.tag, "ref-s5")) {
    std::printf("%-9s %5dx%5dx%5d sms=%3d: %s cutlass %s sk_tiles=%u sk_units=%u groups=%" PRIu64
                " splits=%d | lastwave %s\n",
                r.match ? "match" : "MISMATCH", c.m, c.n, c.k, c.sms, c.tag, mode,
                b.params.sk_tiles_, b.params.sk_units_,
                uint64_t(b.params.divmod_sk_groups_.divisor), b.params.divmod_splits_.divisor,
                planned.choice_label().c_str());
  }
  if (!r.match && print_diff) {
    std::printf(
        "MISMATCH %dx%dx%d sms=%d [%s]: cutlass %s grid=%d sk_tiles=%u sk_units=%u groups=%" PRIu64
        " splits=%d | lastwave %s grid=%" PRId64 " split_tiles=%" PRId64 " split_units=%" PRId64
        " groups=%" PRId64 "\n",
        c.m, c.n, c.k, c.sms, c.tag, mode, b.grid, b.params.sk_tiles_, b.params.sk_units_,
        uint64_t(b.params.divmod_sk_groups_.divisor), b.params.divmod_splits_.divisor,
        planned.choice_label().c_str(), p.grid, p.split_tiles, p.split_units, p.groups);
    if (r.grid_ok) {
      const int64_t cta = r.first_cta;
      const auto& cw = cwalk[cta];
      const auto& lwv = lwalk[cta];
      std::printf("  CTA %" PRId64 " (first difference at position %zu)\n", cta, r.first_pos);
      std::printf("  %-4s %-28s %-28s\n", "#", "CUTLASS", "lastwave");
      const size_t n = std::max(cw.size(), lwv.size());
      for (size_t i = 0; i < n && i < 64; ++i) {
        std::printf("  %-4zu ", i);
        print_rec(i < cw.size() ? &cw[i] : nullptr);
        std::printf(" ");
        print_rec(i < lwv.size() ? &lwv[i] : nullptr);
        std::printf("%s\n", (i < cw.size() && i < lwv.size() && cw[i] == lwv[i]) ? "" : "  <--");
      }
    }
  }
  return r;
}

int main(int argc, char** argv) {
  int n_random = 2000, n_targeted = 2000, n_any_sms = 1000;
  unsigned seed = 20260901u;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--random") && i + 1 < argc)
      n_random = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--targeted") && i + 1 < argc)
      n_targeted = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--any-sms") && i + 1 < argc)
      n_any_sms = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = unsigned(std::strtoul(argv[++i], nullptr, 10));
    else if (!std::strcmp(argv[i], "--verbose"))
      verbose = true;
    else if (!std::strcmp(argv[i], "--mutate"))
      g_mutate = true;
    else {
      std::fprintf(
          stderr,
          "usage: %s [--random N] [--targeted N] [--any-sms N] [--seed S] [--verbose] [--mutate]\n",
          argv[0]);
      return 2;
    }
  }
  std::vector<Case> cases;
  // Worked examples of shared/reference/cutlass-streamk.md section 5 (H200: 132 SMs).
  const int ex[][3] = {{4096, 4096, 4096}, {2048, 2048, 4096}, {1024, 1024, 4096},
                       {512, 512, 8192},   {1024, 512, 8192},  {3072, 2304, 4096},
                       {3712, 1792, 4096}, {1536, 1536, 1024}, {256, 256, 16384},
                       {128, 128, 65536},  {2048, 1024, 512}};
  for (auto& e : ex) cases.push_back(Case{e[0], e[1], e[2], 132, "ref-s5"});
  const int sm_list[] = {8, 16, 32, 64, 96, 108, 114, 128, 132, 148};
  std::mt19937_64 rng(seed);
  auto uni = [&](int lo, int hi) { return int(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  // Uniform random shapes.
  for (int i = 0; i < n_random; ++i)
    cases.push_back(Case{uni(1, 8192), uni(1, 8192), uni(1, 16384), sm_list[uni(0, 9)], "random"});
  // Targeted: tile counts chosen so that the tail wave is < half full (the stream-K / heuristic
  // split-K regime), Kt in [9, 256], ragged M/N/K edges.
  for (int i = 0; i < n_targeted; ++i) {
    const int sms = sm_list[uni(0, 9)];
    const int waves = uni(0, 3);
    const int tail = uni(1, std::max(1, (sms - 1) / 2));
    int tiles = waves * sms + tail;
    // factor tiles into tm x tn with tm, tn <= 64 (M, N <= 8192)
    int tm = 1, tn = tiles;
    std::vector<int> divs;
    for (int d = 1; d <= 64; ++d)
      if (tiles % d == 0 && tiles / d <= 64) divs.push_back(d);
    if (divs.empty()) {
      --i;
      continue;
    }
    tm = divs[uni(0, int(divs.size()) - 1)];
    tn = tiles / tm;
    const int kt = uni(9, 256);
    const int m = (tm - 1) * 128 + uni(1, 128);
    const int n = (tn - 1) * 128 + uni(1, 128);
    const int k = (kt - 1) * 64 + uni(1, 64);
    cases.push_back(Case{m, n, std::min(k, 16384), sms, "targeted"});
  }
  // Any SM count in [1, 264], shapes biased small so that stream-K / split-K show up.
  for (int i = 0; i < n_any_sms; ++i) {
    const int sms = uni(1, 264);
    const int big = uni(0, 1);
    cases.push_back(
        Case{uni(1, big ? 8192 : 2048), uni(1, big ? 8192 : 2048), uni(1, 16384), sms, "any-sms"});
  }
  // Small-Kt edge sweep: Kt 9..24 with every tail size on a few SM counts.
  for (int sms : {8, 16, 132})
    for (int kt = 9; kt <= 24; ++kt)
      for (int tiles = 1; tiles <= 2 * sms + sms / 2; tiles += (sms > 16 ? 7 : 1))
        cases.push_back(Case{128 * tiles, 128, 64 * kt, sms, "small-kt"});

  int mode_counts[3] = {0, 0, 0};
  int matched = 0, failed = 0;
  int64_t records = 0;
  const Case* smallest = nullptr;
  double smallest_work = 0;
  for (const Case& c : cases) {
    Result r = compare(c, verbose, mode_counts);
    records += r.records;
    if (r.match) {
      ++matched;
    } else {
      ++failed;
      const double work = double(c.m) * c.n * c.k;
      if (!smallest || work < smallest_work) {
        smallest = &c;
        smallest_work = work;
      }
    }
  }
#if defined(LW_XCHECK_DEVICE)
  const char* where = "device (sm_90a kernel, scheduler object + fetch_next_work)";
#else
  const char* where = "host (scheduler static functions compiled as host code)";
#endif
  std::printf("CUTLASS %d.%d.%d walk on %s\n", CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH, where);
  std::printf("cases %zu (ref-s5 11, random %d, targeted %d, any-sms %d, small-kt %zu), seed %u\n",
              cases.size(), n_random, n_targeted, n_any_sms,
              cases.size() - 11 - n_random - n_targeted - n_any_sms, seed);
  std::printf("CUTLASS decomposition: DataParallel %d, SplitK %d, StreamK %d\n", mode_counts[0],
              mode_counts[1], mode_counts[2]);
  std::printf("work-tile records compared %" PRId64 "\n", records);
  std::printf("matched %d / %zu, mismatched %d\n", matched, cases.size(), failed);
  if (smallest) {
    std::printf("smallest failing case:\n");
    int dummy[3] = {0, 0, 0};
    compare(*smallest, true, dummy);
  }
  return failed == 0 ? 0 : 1;
}
