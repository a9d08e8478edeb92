// lastwave-bench: times the CUDA GEMM under every requested decomposition (and cuBLAS) on whole-GPU
// or green-context SM partitions, checks correctness, writes one CSV row per configuration.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cuda/bench/config_csv.hpp"
#include "cuda/bench/int_list.hpp"
#include "cuda/bench/partition.hpp"
#include "cuda/bench/runner.hpp"
#include "cuda/gemm.hpp"
#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/util/atomic_file.hpp"
#include "sim/util/shapes_csv.hpp"

namespace po = boost::program_options;
using namespace lw;
using namespace lw::bench;

namespace {

constexpr int kExitBadInput = 1;
constexpr int kExitCheckFailed = 2;
constexpr int kExitRuntime = 3;
// --time-limit stopped the run: the rows written are those of the shapes that ran, each complete.
constexpr int kExitTimeLimit = 4;
// The longest --time-limit taken (seconds, ~11.6 days): past it the deadline's clock would
// overflow.
constexpr double kMaxTimeLimitS = 1e6;
constexpr double kMaxCublasEachAboveMs = 1e6;  // --cublas-each-above's bound, ms

// "splitk" -> "splitk:S" where a split count is required but not written.
std::string with_splits(const std::string& list, int64_t splits) {
  std::stringstream ss(list);
  std::string item, out;
  while (std::getline(ss, item, ',')) {
    if (item == "splitk" || item == "splitk-sep" || item == "splitk-dsm" ||
        item == "cutlass-splitk") {
      item += ":" + std::to_string(splits);
    }
    out += (out.empty() ? "" : ",") + item;
  }
  return out.empty() ? list : out;
}

// --decomposition auto: the simulator picks per shape among every kernel tile (or --tile) and the
// clusters the model can cost (or --cluster), under --model; checked before any GPU work.
void configure_auto(const po::variables_map& vm, const std::string& model, const std::string& gpu,
                    BenchOptions& opt) {
  if (!vm.count("model")) throw std::invalid_argument("--decomposition auto needs --model FILE");
  if (vm.count("trace")) throw std::invalid_argument("--decomposition auto takes no --trace");
  opt.auto_pick = true;
  opt.model_path = model;
  opt.gpu = gpu;
  opt.schedules = {"auto"};
  opt.tiles = {std::begin(kKernelTiles), std::end(kKernelTiles)};
  make_model_from_file(model, {}, gpu_preset(gpu));  // throws on a bad file or preset
}

// --decomposition LIST (or auto) with --splits and --top: the schedules of the product.
void configure_schedules(const po::variables_map& vm, const std::string& decomps, int64_t splits,
                         const std::string& model, const std::string& gpu, BenchOptions& opt) {
  if (decomps.empty()) throw std::invalid_argument("--decomposition (or --configs) is required");
  if (splits < 1) throw std::invalid_argument("--splits must be >= 1");
  if (decomps != "auto" && ("," + decomps + ",").find(",auto,") != std::string::npos) {
    throw std::invalid_argument("'auto' runs alone: --decomposition auto");
  }
  if (vm.count("top") && decomps != "auto") {
    throw std::invalid_argument("--top ranks the configs of --decomposition auto");
  }
  if (decomps == "auto") {
    configure_auto(vm, model, gpu, opt);
    return;
  }
  opt.schedules = parse_schedule_list(with_splits(decomps, splits));
  for (const auto& s : opt.schedules) {
    if (s == "best") throw std::invalid_argument("schedule 'best' is simulator-only");
  }
}

// --configs FILE: the tile x cluster x decomposition triples of a CSV (a pruned list, or an
// earlier run's rows) in place of the product of --tile, --cluster and --decomposition.
void configure_config_list(const po::variables_map& vm, const std::string& path,
                           BenchOptions& opt) {
  for (const char* o : {"decomposition", "tile", "cluster", "splits", "top"}) {
    if (vm.count(o)) {
      throw std::invalid_argument(std::string("--configs takes no --") + o +
                                  " (the file lists each row's tile, cluster and decomposition)");
    }
  }
  opt.config_list = read_configs_csv(path);
  opt.schedules = config_schedules(opt.config_list);
  opt.tiles = config_tiles(opt.config_list);
  opt.clusters = config_clusters(opt.config_list);
}

}  // namespace

int main(int argc, char** argv) {
  po::options_description desc(
      "lastwave-bench: CUDA GEMM decompositions vs cuBLAS on an H100/H200\n"
      "usage: lastwave-bench (--m M --n N --k K | --shapes FILE.csv) (--decomposition LIST | "
      "--configs FILE.csv) [opts]");
  std::string shapes_file, configs_file, decomps, reduction = "deterministic", sms_list, out, trace;
  std::string mainloop = "wgmma", tiles = tile_text(kDefaultTile), clusters = "1x1";
  std::string model, gpu = "h200", swizzles = "1";
  std::string promotions;
  int64_t m = 0, n = 0, k = 0, splits = 2, top = 1;
  int reps = 20, warmup = 3;
  uint64_t shuffle = 0;
  double time_limit_s = 0;
  double cublas_each_above_ms = 0;
  const auto started = std::chrono::steady_clock::now();
  desc.add_options()("help,h", "show this help")("m", po::value(&m), "rows of A and C")(
      "n", po::value(&n), "columns of C (rows of B)")("k", po::value(&k), "reduction depth")(
      "shapes", po::value(&shapes_file), "CSV with columns m,n,k (instead of --m/--n/--k)")(
      "decomposition", po::value(&decomps),
      "comma list: dp, dp-persistent, splitk:S, splitk-sep:S, splitk-dsm:S, streamk[:G], cutlass, "
      "cutlass-dp, "
      "cutlass-streamk, cutlass-splitk:S, cutlass-seed, two-tile; or auto (the simulator picks "
      "tile x cluster x decomposition per shape under --model)")(
      "splits", po::value(&splits), "split count for names given without ':S' (default 2)")(
      "configs", po::value(&configs_file),
      "CSV (.gz too) whose columns tile, cluster and decomposition list the configurations to "
      "run, each distinct row once (other columns ignored: an earlier run's output is one); "
      "replaces --tile, --cluster and --decomposition")(
      "reduction", po::value(&reduction), "deterministic | atomic (default deterministic)")(
      "mainloop", po::value(&mainloop),
      "comma list of mma (ladder step 1: mma.sync + cp.async) | wgmma (step 2: wgmma + TMA, "
      "warp-specialised; default)")(
      "tile", po::value(&tiles),
      ("comma list of kernel tiles MxN or MxNxK, or 'all' (default 128x128x64); the kernels "
       "have: " +
       kernel_tiles_text())
          .c_str())(
      "cluster", po::value(&clusters),
      ("comma list of clusters MxN (default 1x1); the kernels have: " + kernel_clusters_text())
          .c_str())("sms", po::value(&sms_list),
                    "comma list of SM counts (green contexts; default whole GPU)")(
      "swizzle", po::value(&swizzles),
      "comma list of tile swizzles (bands of S tile rows or columns; default 1: plain raster)")(
      "l2-promotion", po::value(&promotions),
      "comma list of the operand loads' L2 promotion in bytes: 0, 64, 128, 256 (default: the "
      "kernels' rule, 256 where K % 64 == 0, else 128)")(
      "reps", po::value(&reps), "timed samples per configuration (default 20)")(
      "warmup", po::value(&warmup), "untimed launches first (default 3)")(
      "shuffle", po::value(&shuffle),
      "time each shape's configurations in a random order drawn from this seed (default 0: in "
      "the order given; the card's heat carries from one run to the next)")(
      "cublas-each",
      "time cuBLAS again right after each configuration, for that row's cublas_ms (default: once "
      "per shape, before its configurations; long runs heat the card between the two)")(
      "cublas-each-above", po::value(&cublas_each_above_ms),
      "as --cublas-each, on the shapes whose first cuBLAS time exceeds this many ms (the ones "
      "whose runs heat the card)")("out", po::value(&out), "CSV output file (default stdout)")(
      "time-limit", po::value(&time_limit_s),
      "seconds after which no further shape starts (each shape's configurations run all or "
      "none); the rows of the shapes run are written and the exit code is 4 (default: none)")(
      "trace", po::value(&trace), "Chrome-trace JSON of a traced run (per config when several)")(
      "model", po::value(&model),
      "fitted model file for --decomposition auto (e.g. configs/models/h200-bf16-wgmma-r17.json)")(
      "gpu", po::value(&gpu), "GPU preset the auto model's partitions derive from (default h200)")(
      "top", po::value(&top),
      "with --decomposition auto: run the simulator's K fastest configs of each shape, a row "
      "each (auto_rank 1 = its pick; default 1)");
  BenchOptions opt;
  std::vector<int64_t> sms;
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << desc << "\n";
      return 0;
    }
    const bool dims = vm.count("m") || vm.count("n") || vm.count("k");
    if (dims == static_cast<bool>(vm.count("shapes"))) {
      throw std::invalid_argument("give either --m --n --k or --shapes");
    }
    if (dims) {
      if (!vm.count("m") || !vm.count("n") || !vm.count("k") || m < 1 || n < 1 || k < 1) {
        throw std::invalid_argument("--m, --n and --k must all be given and >= 1");
      }
      opt.shapes = {Problem{m, n, k}};
    } else {
      opt.shapes = read_shapes_csv(shapes_file);
    }
    if (vm.count("configs")) {
      configure_config_list(vm, configs_file, opt);
    } else {
      configure_schedules(vm, decomps, splits, model, gpu, opt);
    }
    if (top < 1) throw std::invalid_argument("--top must be >= 1");
    opt.auto_top = top;
    opt.reduction = parse_reduction(reduction);
    opt.mainloops.clear();
    {
      std::stringstream ml(mainloop);
      std::string item;
      while (std::getline(ml, item, ',')) {
        cuda::parse_mainloop(item);  // throws on an unknown name
        opt.mainloops.push_back(item);
      }
      if (opt.mainloops.empty()) throw std::invalid_argument("--mainloop: empty list");
    }
    if (opt.config_list.empty()) {
      if (!opt.auto_pick || vm.count("tile")) opt.tiles = parse_kernel_tiles(tiles);
      opt.clusters = parse_kernel_clusters(clusters);
    }
    opt.swizzles = parse_int_list(swizzles, "--swizzle");
    for (const int64_t sw : opt.swizzles) {
      if (sw < 1 || sw > kMaxSwizzle) {
        throw std::invalid_argument("--swizzle: " + std::to_string(sw) + " is not in 1.." +
                                    std::to_string(kMaxSwizzle));
      }
    }
    if (opt.auto_pick && vm.count("swizzle")) {
      throw std::invalid_argument("--swizzle applies to the listed decompositions, not auto");
    }
    if (vm.count("l2-promotion")) {
      opt.l2_promotions = parse_int_list(promotions, "--l2-promotion", 0);
      for (const int64_t bytes : opt.l2_promotions) {
        if (!cuda::valid_l2_promotion(static_cast<int>(bytes))) {
          throw std::invalid_argument("--l2-promotion: " + std::to_string(bytes) +
                                      " is not one of 0, 64, 128, 256");
        }
      }
    }
    if (opt.auto_pick && vm.count("l2-promotion")) {
      throw std::invalid_argument("--l2-promotion applies to the listed decompositions, not auto");
    }
    if (opt.auto_pick && vm.count("cluster")) opt.auto_clusters = opt.clusters;
    if (opt.auto_pick && vm.count("tile")) opt.auto_tiles = opt.tiles;
    if (reps < 1 || warmup < 0) throw std::invalid_argument("--reps must be >= 1, --warmup >= 0");
    opt.reps = reps;
    opt.warmup = warmup;
    opt.shuffle_seed = shuffle;
    if (vm.count("cublas-each") && vm.count("cublas-each-above")) {
      throw std::invalid_argument("--cublas-each and --cublas-each-above: give one");
    }
    if (vm.count("cublas-each")) opt.cublas_each_above_ms = 0;
    if (vm.count("cublas-each-above")) {
      if (!(cublas_each_above_ms >= 0 && cublas_each_above_ms <= kMaxCublasEachAboveMs)) {
        throw std::invalid_argument("--cublas-each-above must be >= 0 and <= " +
                                    std::to_string(static_cast<int64_t>(kMaxCublasEachAboveMs)) +
                                    " ms");
      }
      opt.cublas_each_above_ms = cublas_each_above_ms;
    }
    if (vm.count("time-limit")) {
      if (!(time_limit_s > 0 && time_limit_s <= kMaxTimeLimitS)) {
        throw std::invalid_argument("--time-limit must be > 0 and <= " +
                                    std::to_string(static_cast<int64_t>(kMaxTimeLimitS)) +
                                    " seconds");
      }
      opt.deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   std::chrono::duration<double>(time_limit_s));
    }
    opt.trace_path = trace;
    if (!sms_list.empty()) sms = parse_int_list(sms_list, "--sms");
    // Plan every configuration before touching the GPU (CUDA-free validation of shapes/names).
    for (const auto& shape : opt.shapes)
      for (const auto& s : opt.schedules)
        plan_schedule(opt.auto_pick ? "dp" : s, shape, kDefaultTile, GpuShape{}, opt.reduction);
  } catch (const std::exception& e) {
    std::cerr << "lastwave-bench: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::vector<ResultRow> rows;
  bool time_limited = false;
  try {
    constexpr int kDevice = 0;
    cuda::require_kernel_device();  // before any row: a device it cannot run on is one error
    const int64_t all = device_sms(kDevice);
    if (sms.empty()) sms = {all};
    for (int64_t s : sms) check_partition_request(s, all);
    opt.single_config = opt.shapes.size() == 1 && opt.schedules.size() == 1 && sms.size() == 1 &&
                        opt.mainloops.size() == 1 && opt.tiles.size() == 1;
    Fp64Cache fp64;
    for (int64_t s : sms) {
      const size_t ran = run_partition(kDevice, s, opt, fp64, rows);
      if (ran < opt.shapes.size()) {
        time_limited = true;
        std::cerr << "lastwave-bench: --time-limit " << time_limit_s << " s reached: " << ran
                  << " of " << opt.shapes.size() << " shapes run at " << s
                  << " SMs; later shapes and SM counts not started\n";
        break;
      }
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "lastwave-bench: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "lastwave-bench: " << e.what() << "\n";
    return kExitRuntime;
  }
  std::string csv = csv_header();
  bool all_ok = true;  // configurations that could not run are rows with a reason, not failures
  for (const auto& r : rows) {
    csv += csv_row(r);
    all_ok = all_ok && (r.ok || cannot_run(r));
  }
  try {
    if (out.empty()) {
      std::cout << csv;
    } else {
      write_file_atomically(out, csv);
    }
  } catch (const std::exception& e) {
    std::cerr << "lastwave-bench: " << e.what() << "\n";
    return kExitRuntime;
  }
  if (!all_ok) {
    std::cerr << "lastwave-bench: some configurations failed their correctness check (ok=0)\n";
    return kExitCheckFailed;
  }
  return time_limited ? kExitTimeLimit : 0;
}
