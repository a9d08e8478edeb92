// One benchmark configuration set on one SM partition: for each shape, cuBLAS once, then every
// decomposition: correctness (vs cuBLAS, vs FP64 on small shapes, poisoned output fully written),
// timing (L2 flush + event-timed flag reset and launches), SM clock, optional trace.
#pragma once
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cuda/bench/config_csv.hpp"
#include "cuda/tensor_map.hpp"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/schedule.hpp"

namespace lw::bench {

// A --l2-promotion entry meaning "whatever the kernels choose for the shape".
constexpr int64_t kKernelsL2Promotion = -1;

struct BenchOptions {
  std::vector<Problem> shapes;
  std::vector<std::string> schedules;
  Reduction reduction = Reduction::Deterministic;  // requested; rows report the plan's own
  std::vector<std::string> mainloops = {"wgmma"};  // ladder steps to run, each a CSV row
  std::vector<TileShape> tiles = {kDefaultTile};   // kernel tiles to run, each a CSV row
  std::vector<ClusterShape> clusters = {ClusterShape{}};
  // --configs: when not empty, the tile x cluster x decomposition triples to run, in place of the
  // product of `tiles`, `clusters` and `schedules` (which then list the triples' distinct values).
  std::vector<BenchConfig> config_list;
  std::vector<int64_t> swizzles = {1};  // Plan::swizzle of every config, each a CSV row
  // L2 promotion of the operand loads in bytes (cuda/tensor_map.hpp), each a CSV row;
  // kKernelsL2Promotion: the kernels' own rule (cuda::default_l2_promotion).
  std::vector<int64_t> l2_promotions = {kKernelsL2Promotion};
  int warmup = 3;
  int reps = 20;
  // 0: each shape's configurations run in the given order; else in a permutation drawn from this
  // seed and the shape's index (--shuffle).
  uint64_t shuffle_seed = 0;
  // On shapes whose first cuBLAS time (before their configurations) exceeds this, in ms, cuBLAS
  // is timed again right after each configuration and the row's cublas_ms is that time (the
  // card's heat then falls on both alike); elsewhere the first time. Infinity: never.
  double cublas_each_above_ms = std::numeric_limits<double>::infinity();
  std::string trace_path;  // empty = no traces
  bool single_config = false;
  int64_t fp64_limit = int64_t{1} << 27;  // M*N*K up to which an FP64 host check runs
  double tolerance = 1e-2;                // max relative Frobenius error
  // --decomposition auto: per shape and partition the simulator picks tile x cluster x
  // decomposition under this fitted model (in-process, sim/predict/best.hpp) from `auto_tiles` x
  // `auto_clusters`, and the row records its prediction.
  bool auto_pick = false;
  std::string model_path;
  std::string gpu = "h200";                 // preset the model's partition is derived from
  std::vector<ClusterShape> auto_clusters;  // empty = every cluster the model can cost
  std::vector<TileShape> auto_tiles;        // empty = every tile the model can cost
  // --top K: auto runs the simulator's K fastest configs of each shape (rank_best), a row each.
  int64_t auto_top = 1;
  // --time-limit: no shape starts after this instant (its configurations all run or none do);
  // time_point::max(): no limit.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

struct ResultRow : PlanSummary {
  Problem shape;
  int64_t sms = 0;
  std::string schedule;
  std::string mainloop;  // the mainloop that ran
  TileShape tile;
  ClusterShape cluster;
  int64_t swizzle = 1;       // the plan's tile swizzle
  int64_t l2_promotion = 0;  // bytes, of the operand loads (what the launch used)
  // wgmma launches: "pingpong" or "cooperative" consumers (plan_runs_pingpong); else empty.
  std::string consumers;
  std::string reason;  // why the configuration could not run (ok = 0, nothing timed); else empty
  std::string picked;  // auto rows: the decomposition the simulator picked
  double predicted_us = -1;  // auto rows: the simulator's predicted time (-1 otherwise)
  int64_t auto_rank = 0;     // auto rows: 1 = the simulator's pick, 2, 3, ... its next (--top)
  double median_ms = 0, p10_ms = 0, p90_ms = 0, tflops = 0;
  double cublas_ms = 0, cublas_tflops = 0;
  double rel_err = 0, rel_err_fp64 = -1;  // -1 = not checked
  double sm_clock_mhz = 0;
  bool ok = true;
};

std::string csv_header();

// True for a row whose configuration could not run (nothing was timed), as opposed to one that ran
// and failed its correctness check.
bool cannot_run(const ResultRow& r);
std::string csv_row(const ResultRow& r);  // `reduction`: what the plan did, not what was asked

// Path of the trace for one config: `base` itself for a single config, else base_<config>.json.
std::string trace_file(const std::string& base, bool single, const Problem& p, int64_t sms,
                       const std::string& schedule);

// FP64 references keyed by shape, shared across partitions.
using Fp64Cache = std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<double>>;

// Runs every shape x tile x schedule x mainloop of `opt` on a partition of `sms` SMs; appends
// rows. A configuration that cannot run (plan, tile or operands it does not support) is one row
// with ok = 0 and its reason. Returns the shapes it ran: fewer than opt.shapes where it reached
// opt.deadline (the shapes after it not started).
size_t run_partition(int device, int64_t sms, const BenchOptions& opt, Fp64Cache& fp64,
                     std::vector<ResultRow>& rows);

}  // namespace lw::bench
