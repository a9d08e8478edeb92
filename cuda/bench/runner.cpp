// Benchmark runner for one SM partition (see runner.hpp).
#include "cuda/bench/runner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <sstream>

#include "cuda/bench/cublas_ref.hpp"
#include "cuda/bench/device_util.hpp"
#include "cuda/bench/host_ref.hpp"
#include "cuda/bench/partition.hpp"
#include "cuda/bench/stats.hpp"
#include "cuda/bench/trace_json.hpp"
#include "cuda/gemm.hpp"
#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/predict/best.hpp"
#include "sim/util/atomic_file.hpp"
#include "sim/util/csv_field.hpp"

namespace lw::bench {

namespace {

constexpr double kFlopsPerMac = 2.0;
constexpr double kMsPerS = 1e3;
constexpr double kTera = 1e12;
// Spreads --shuffle's per-shape seeds (the 64-bit golden ratio).
constexpr uint64_t kShuffleStride = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kSeedA = 0xA5A5A5A5ull, kSeedB = 0x5A5A5A5Aull;

using Bf16 = __nv_bfloat16;

template <typename T>
struct DeviceBuffer {
  T* p = nullptr;
  explicit DeviceBuffer(int64_t count) {
    cuda::check_cuda(cudaMalloc(&p, static_cast<size_t>(count) * sizeof(T)), "cudaMalloc");
  }
  ~DeviceBuffer() { cudaFree(p); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

double tflops(const Problem& p, double ms) {
  return kFlopsPerMac * static_cast<double>(p.m) * static_cast<double>(p.n) *
         static_cast<double>(p.k) / (ms / kMsPerS) / kTera;
}

// Warm-up, then `reps` samples of [L2 flush][event][enqueue][event]; returns ms per sample.
std::vector<double> time_samples(cudaStream_t s, L2Flusher& flush, int warmup, int reps,
                                 const std::function<void()>& enqueue) {
  for (int i = 0; i < warmup; ++i) {
    flush.flush(s);
    enqueue();
  }
  std::vector<cudaEvent_t> ev(2 * static_cast<size_t>(reps));
  for (auto& e : ev) cuda::check_cuda(cudaEventCreate(&e), "cudaEventCreate");
  for (int r = 0; r < reps; ++r) {
    flush.flush(s);
    cuda::check_cuda(cudaEventRecord(ev[2 * r], s), "cudaEventRecord");
    enqueue();
    cuda::check_cuda(cudaEventRecord(ev[2 * r + 1], s), "cudaEventRecord");
  }
  cuda::check_cuda(cudaStreamSynchronize(s), "timing sync");
  std::vector<double> ms(static_cast<size_t>(reps));
  for (int r = 0; r < reps; ++r) {
    float t = 0;
    cuda::check_cuda(cudaEventElapsedTime(&t, ev[2 * r], ev[2 * r + 1]), "cudaEventElapsedTime");
    ms[static_cast<size_t>(r)] = t;
  }
  for (auto& e : ev) cudaEventDestroy(e);
  return ms;
}

std::vector<uint16_t> to_host(const Bf16* d, int64_t count) {
  std::vector<uint16_t> h(static_cast<size_t>(count));
  cuda::check_cuda(cudaMemcpy(h.data(), d, h.size() * sizeof(uint16_t), cudaMemcpyDeviceToHost),
                   "copy to host");
  return h;
}

// The traced CTAs of both launches, each segment paired with the host walk's.
std::vector<TracedCta> traced_ctas(const Plan& plan, const cuda::TraceResult& t) {
  const auto walk = cuda::host_walk(plan);
  std::vector<TracedCta> ctas;
  for (int64_t c = 0; c < plan.grid * cluster_size(plan); ++c) {
    TracedCta tc;
    tc.cta = c;
    tc.smid = t.ctas[static_cast<size_t>(c)].smid;
    tc.t_entry = t.ctas[static_cast<size_t>(c)].t_entry;
    tc.t_exit = t.ctas[static_cast<size_t>(c)].t_exit;
    const auto& w = walk[static_cast<size_t>(c / cluster_size(plan))];
    for (size_t i = 0; i < w.size(); ++i) {
      tc.segments.emplace_back(w[i], t.segments[static_cast<size_t>(c * t.max_segments) + i]);
    }
    ctas.push_back(std::move(tc));
  }
  for (int64_t r = 0; r < reduction_grid(plan) * cluster_size(plan); ++r) {
    TracedCta tc;
    tc.cta = r;
    tc.launch = 1;
    tc.smid = t.reduction_ctas[static_cast<size_t>(r)].smid;
    tc.segments.emplace_back(reduction_segment(plan, r / cluster_size(plan)),
                             t.reduction_segments[static_cast<size_t>(r)]);
    ctas.push_back(std::move(tc));
  }
  return ctas;
}

}  // namespace

std::string csv_header() {
  return "m,n,k,sms,decomposition,reduction,splits,grid,median_ms,p10_ms,p90_ms,tflops,cublas_ms,"
         "cublas_tflops,rel_err,rel_err_fp64,sm_clock_mhz,choice,tiles,k_tiles,sk_tiles,sk_units,"
         "ok,mainloop,tile,cluster,reason,picked,predicted_us,auto_rank,swizzle,l2_promotion,"
         "consumers\n";
}

std::string csv_row(const ResultRow& r) {
  char buf[512];
  std::snprintf(buf, sizeof(buf),
                "%lld,%lld,%lld,%lld,%s,%s,%lld,%lld,%.5f,%.5f,%.5f,%.2f,%.5f,%.2f,%.3e,%.3e,%.0f,"
                "%s,%lld,%lld,%lld,%lld,%d,%s\n",
                static_cast<long long>(r.shape.m), static_cast<long long>(r.shape.n),
                static_cast<long long>(r.shape.k), static_cast<long long>(r.sms),
                r.schedule.c_str(), r.reduction.c_str(), static_cast<long long>(r.splits),
                static_cast<long long>(r.grid), r.median_ms, r.p10_ms, r.p90_ms, r.tflops,
                r.cublas_ms, r.cublas_tflops, r.rel_err, r.rel_err_fp64, r.sm_clock_mhz,
                r.choice.c_str(), static_cast<long long>(r.tiles),
                static_cast<long long>(r.k_tiles), static_cast<long long>(r.sk_tiles),
                static_cast<long long>(r.sk_units), r.ok ? 1 : 0, r.mainloop.c_str());
  std::string row = buf;
  row.pop_back();  // the newline
  char predicted[32];
  std::snprintf(predicted, sizeof(predicted), "%.3f", r.predicted_us);
  return row + "," + tile_text(r.tile) + "," + cluster_text(r.cluster) + "," + csv_field(r.reason) +
         "," + r.picked + "," + predicted + "," + std::to_string(r.auto_rank) + "," +
         std::to_string(r.swizzle) + "," + std::to_string(r.l2_promotion) + "," + r.consumers +
         "\n";
}

std::string trace_file(const std::string& base, bool single, const Problem& p, int64_t sms,
                       const std::string& schedule) {
  if (single) return base;
  std::string stem = base;
  const std::string ext = ".json";
  if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0) {
    stem.resize(stem.size() - ext.size());
  }
  std::string sched = schedule;
  for (char& c : sched)
    if (c == ':') c = '-';
  std::ostringstream os;
  os << stem << "_" << p.m << "x" << p.n << "x" << p.k << "_sms" << sms << "_" << sched << ext;
  return os.str();
}

bool cannot_run(const ResultRow& r) { return r.reason.rfind("cannot run", 0) == 0; }

namespace {

// The in-process chooser of --decomposition auto on one partition: the fitted model for the
// partition's SM count and the candidate tiles x clusters.
class AutoChooser {
 public:
  AutoChooser(const BenchOptions& opt, int64_t sms) : opt_(opt), sms_(sms) {
    const GpuSpec preset = gpu_preset(opt.gpu);
    spec_ = gpu_with_sms(sms, &preset);
    model_ = make_model_from_file(opt.model_path, {}, spec_);
    clusters_ = opt.auto_clusters.empty() ? model_clusters(*model_) : opt.auto_clusters;
    tiles_ = opt.auto_tiles.empty() ? model_tiles(*model_) : opt.auto_tiles;
  }
  // The simulator's auto_top fastest configs for `shape`, its pick first; throws
  // std::invalid_argument when nothing can be chosen.
  std::vector<BestChoice> pick(const Problem& shape) {
    const GpuShape gpu{sms_, spec_.ctas_per_sm, 0};
    const std::vector<BestChoice> ranked =
        rank_best(shape, gpu, opt_.reduction, *model_, tiles_, clusters_,
                  static_cast<size_t>(opt_.auto_top), sim_);
    if (!ranked.front().found) {
      throw std::invalid_argument("auto: every candidate deadlocks in the simulator");
    }
    return ranked;
  }
  double to_us(double t) const { return model_->time_unit() == "us" ? t : -1; }

 private:
  const BenchOptions& opt_;
  int64_t sms_;
  GpuSpec spec_;
  std::unique_ptr<CostModel> model_;
  std::vector<ClusterShape> clusters_;
  std::vector<TileShape> tiles_;
  Simulator sim_;
};

}  // namespace

namespace {

// One shape's device inputs, its cuBLAS reference output and time, and its FP64 reference.
struct ShapeInputs {
  Problem shape;
  int64_t mk, nk, mn;
  DeviceBuffer<Bf16> a, b, c, c_ref, c_trace;
  double blas_ms = 0;
  const std::vector<double>* ref64 = nullptr;
  explicit ShapeInputs(const Problem& p)
      : shape(p),
        mk(p.m * p.k),
        nk(p.n * p.k),
        mn(p.m * p.n),
        a(mk),
        b(nk),
        c(mn),
        c_ref(mn),
        c_trace(mn) {}
};

// cuBLAS's median on the shape, by the same protocol as the kernels (its output is the reference).
double time_cublas(ShapeInputs& in, cudaStream_t s, CublasRef& blas, L2Flusher& flush,
                   const BenchOptions& opt) {
  const Problem& p = in.shape;
  return summarize(time_samples(s, flush, opt.warmup, opt.reps,
                                [&] { blas.gemm(p.m, p.n, p.k, in.a.p, in.b.p, in.c_ref.p); }))
      .median;
}

// The row's cuBLAS time: the shape's, or (--cublas-each, --cublas-each-above past the shape's
// first cuBLAS time) cuBLAS timed again right after the row's configuration was (a configuration
// that could not run is not re-timed against).
void set_cublas(ResultRow& r, ShapeInputs& in, cudaStream_t s, CublasRef& blas, L2Flusher& flush,
                const BenchOptions& opt) {
  const bool again = r.median_ms > 0 && in.blas_ms > opt.cublas_each_above_ms;
  r.cublas_ms = again ? time_cublas(in, s, blas, flush, opt) : in.blas_ms;
  r.cublas_tflops = tflops(in.shape, r.cublas_ms);
}

// Random inputs, cuBLAS (checked fully written, then timed) and the FP64 reference if small.
void prepare(ShapeInputs& in, cudaStream_t s, CublasRef& blas, L2Flusher& flush,
             const BenchOptions& opt, Fp64Cache& fp64) {
  const Problem& p = in.shape;
  const uint64_t shape_seed = static_cast<uint64_t>(p.m * 1000003 + p.n * 1009 + p.k);
  fill_random(in.a.p, in.mk, kSeedA ^ shape_seed, s);
  fill_random(in.b.p, in.nk, kSeedB ^ shape_seed, s);
  poison(in.c_ref.p, in.mn, kBf16Bytes, s);
  blas.gemm(p.m, p.n, p.k, in.a.p, in.b.p, in.c_ref.p);
  const Comparison self = compare(in.c_ref.p, in.c_ref.p, in.mn, kBf16Bytes, s);
  if (self.nonfinite != 0) throw std::runtime_error("cuBLAS left non-finite outputs");
  in.blas_ms = time_cublas(in, s, blas, flush, opt);
  if (p.m * p.n * p.k > opt.fp64_limit) return;
  const auto key = std::make_tuple(p.m, p.n, p.k);
  if (!fp64.count(key)) {
    cuda::check_cuda(cudaStreamSynchronize(s), "sync");
    fp64[key] = reference_gemm(to_host(in.a.p, in.mk), to_host(in.b.p, in.nk), p.m, p.n, p.k);
  }
  in.ref64 = &fp64[key];
}

// What one configuration is: tile, cluster, schedule, mainloop, tile swizzle, L2 promotion.
struct Config {
  TileShape tile;
  ClusterShape cluster;
  std::string schedule;
  cuda::Mainloop mainloop;
  int64_t swizzle = 1;
  int64_t l2_promotion = kKernelsL2Promotion;
};

// The tile x cluster x decomposition triples: --configs's, or the product of the lists.
std::vector<BenchConfig> config_triples(const BenchOptions& opt) {
  if (!opt.config_list.empty()) return opt.config_list;
  std::vector<BenchConfig> triples;
  for (const TileShape& tile : opt.tiles)
    for (const ClusterShape& cluster : opt.clusters)
      for (const std::string& name : opt.schedules) triples.push_back({tile, cluster, name});
  return triples;
}

// A shape's configurations in the order they are timed: tile x cluster x decomposition x mainloop
// x swizzle as given, or, with --shuffle SEED, a permutation drawn from SEED and the shape's index
// (the card's heat after one run is the next run's starting state, so a fixed order biases them
// alike).
std::vector<Config> configs_in_order(const BenchOptions& opt,
                                     const std::vector<cuda::Mainloop>& mainloops,
                                     size_t shape_index) {
  std::vector<Config> configs;
  for (const BenchConfig& t : config_triples(opt))
    for (const cuda::Mainloop ml : mainloops)
      for (const int64_t swizzle : opt.swizzles)
        for (const int64_t promotion : opt.l2_promotions)
          configs.push_back({t.tile, t.cluster, t.schedule, ml, swizzle, promotion});
  if (opt.shuffle_seed != 0) {
    std::mt19937_64 rng(opt.shuffle_seed ^ (kShuffleStride * (shape_index + 1)));
    std::shuffle(configs.begin(), configs.end(), rng);
  }
  return configs;
}

void log_row(const ResultRow& r) {
  std::fprintf(stderr,
               "%5lld %5lld %5lld sms=%3lld %-11s %-18s %-5s grid=%5lld %8.4f ms %7.1f TF/s  "
               "cublas %8.4f ms  err %.2e%s%s\n",
               static_cast<long long>(r.shape.m), static_cast<long long>(r.shape.n),
               static_cast<long long>(r.shape.k), static_cast<long long>(r.sms),
               tile_text(r.tile).c_str(), r.schedule.c_str(), r.mainloop.c_str(),
               static_cast<long long>(r.grid), r.median_ms, r.tflops, r.cublas_ms, r.rel_err,
               r.ok ? "" : (cannot_run(r) ? "  " : "  FAILED "), r.reason.c_str());
}

// Traced launch: written as Chrome-trace JSON (the first of two, whose fixed costs go to stderr);
// false if its output differs from the untraced one.
bool trace_config(const Plan& plan, const Config& cfg, ShapeInputs& in, int64_t sms, cudaStream_t s,
                  const BenchOptions& opt, const std::string& label) {
  cuda::GemmLauncher traced(plan, sms, cuda::OutType::BF16, true, cfg.mainloop);
  if (cfg.l2_promotion != kKernelsL2Promotion) {
    traced.set_l2_promotion(static_cast<int>(cfg.l2_promotion));
  }
  poison(in.c_trace.p, in.mn, kBf16Bytes, s);
  traced.launch(cuda::Operands{in.a.p, in.b.p, in.c_trace.p}, s);
  const std::vector<TracedCta> ctas = traced_ctas(plan, traced.read_trace(s));
  const TraceMeta meta{in.shape.m, in.shape.n, in.shape.k, sms, cfg.schedule};
  const std::string path = trace_file(opt.trace_path, opt.single_config, in.shape, sms, label);
  write_file_atomically(path, trace_to_json(plan, ctas, meta).dump() + "\n");
  // The same launch once more right away (code and operands still cached): the fixed costs of a
  // warm launch beside those of the first.
  traced.launch(cuda::Operands{in.a.p, in.b.p, in.c_trace.p}, s);
  const std::vector<TracedCta> again = traced_ctas(plan, traced.read_trace(s));
  std::fprintf(stderr, "trace %s: %s; launched again: %s\n", path.c_str(),
               fixed_cost_text(ctas).c_str(), fixed_cost_text(again).c_str());
  return plan_reduction(plan) != Reduction::Deterministic ||
         compare(in.c_trace.p, in.c.p, in.mn, kBf16Bytes, s).bits_differ == 0;
}

// Checks and times one configuration on one shape; fills r (ok = 0 with a reason if it cannot
// run: the plan, the tile or the operands are not supported).
void run_config(const Config& cfg, ShapeInputs& in, int64_t sms, cudaStream_t s, L2Flusher& flush,
                const BenchOptions& opt, const std::string& label, ResultRow& r) {
  std::unique_ptr<cuda::GemmLauncher> gemm;
  Planned planned;
  try {
    const cuda::Residency res = cuda::kernel_residency(cfg.tile, cfg.cluster, cfg.mainloop, sms);
    planned =
        plan_schedule(cfg.schedule, in.shape, cfg.tile, res.gpu(sms), opt.reduction, cfg.cluster);
    planned.plan.swizzle = static_cast<int32_t>(cfg.swizzle);
    static_cast<PlanSummary&>(r) = plan_summary(planned);
    gemm = std::make_unique<cuda::GemmLauncher>(planned.plan, sms, cuda::OutType::BF16, false,
                                                cfg.mainloop);
    if (cfg.l2_promotion != kKernelsL2Promotion) {
      gemm->set_l2_promotion(static_cast<int>(cfg.l2_promotion));
    }
  } catch (const std::invalid_argument& e) {
    r.ok = false;
    r.reduction = reduction_name(opt.reduction);  // nothing ran: the row names the request
    r.reason = std::string("cannot run: ") + e.what();
    return;
  }
  r.l2_promotion = gemm->l2_promotion();
  const cuda::Operands ops{in.a.p, in.b.p, in.c.p};
  poison(in.c.p, in.mn, kBf16Bytes, s);
  gemm->launch(ops, s);
  r.mainloop = cuda::mainloop_name(gemm->mainloop());
  if (gemm->mainloop() == cuda::Mainloop::Wgmma) {
    r.consumers = gemm->pingpong() ? "pingpong" : "cooperative";
  }
  const Comparison cmp = compare(in.c.p, in.c_ref.p, in.mn, kBf16Bytes, s);
  r.rel_err = cmp.nonfinite ? NAN : cmp.rel_err();
  if (in.ref64 != nullptr) r.rel_err_fp64 = rel_frobenius_bf16(to_host(in.c.p, in.mn), *in.ref64);
  r.ok = cmp.nonfinite == 0 && r.rel_err < opt.tolerance &&
         (in.ref64 == nullptr || r.rel_err_fp64 < opt.tolerance);
  const SampleStats st =
      summarize(time_samples(s, flush, opt.warmup, opt.reps, [&] { gemm->launch(ops, s); }));
  r.sm_clock_mhz = probe_sm_clock_mhz(s);
  r.median_ms = st.median;
  r.p10_ms = st.p10;
  r.p90_ms = st.p90;
  r.tflops = tflops(in.shape, st.median);
  if (!opt.trace_path.empty() && !trace_config(planned.plan, cfg, in, sms, s, opt, label)) {
    r.ok = false;
    r.reason = "traced output differs from untraced";
  }
  if (!r.ok && r.reason.empty()) {
    r.reason = "wrong result: rel_err " + std::to_string(r.rel_err) + ", fp64 " +
               std::to_string(r.rel_err_fp64) + ", non-finite " + std::to_string(cmp.nonfinite);
  }
}

}  // namespace

namespace {

// The --decomposition auto rows of a shape: the simulator's pick (and with --top its next
// fastest configs), each run and timed like any config, in the simulator's order.
std::vector<ResultRow> run_auto(AutoChooser& chooser, ShapeInputs& in, int64_t sms, cudaStream_t s,
                                CublasRef& blas, L2Flusher& flush, const BenchOptions& opt) {
  std::vector<ResultRow> rows;
  for (const BestChoice& b : chooser.pick(in.shape)) {
    ResultRow& r = rows.emplace_back();
    r.shape = in.shape;
    r.sms = sms;
    r.schedule = "auto";
    r.mainloop = "wgmma";
    r.tile = b.tile;
    r.cluster = b.cluster;
    r.picked = b.schedule;
    r.predicted_us = chooser.to_us(b.makespan);
    r.auto_rank = static_cast<int64_t>(rows.size());
    const Config cfg{b.tile, b.cluster, b.schedule, cuda::Mainloop::Wgmma};
    run_config(cfg, in, sms, s, flush, opt, "auto", r);
    set_cublas(r, in, s, blas, flush, opt);
  }
  return rows;
}

}  // namespace

size_t run_partition(int device, int64_t sms_req, const BenchOptions& opt, Fp64Cache& fp64,
                     std::vector<ResultRow>& rows) {
  Partition part(device, sms_req);
  const cudaStream_t s = part.stream();
  const int64_t sms = part.sms();
  CublasRef blas(s, sms);
  L2Flusher flush(device);
  std::vector<cuda::Mainloop> mainloops;
  for (const auto& m : opt.mainloops) mainloops.push_back(cuda::parse_mainloop(m));
  const bool label_tile = opt.tiles.size() > 1, label_ml = mainloops.size() > 1;
  std::unique_ptr<AutoChooser> chooser;
  if (opt.auto_pick) chooser = std::make_unique<AutoChooser>(opt, sms);
  size_t shape_index = 0;
  for (const Problem& shape : opt.shapes) {
    if (std::chrono::steady_clock::now() >= opt.deadline) return shape_index;
    ShapeInputs in(shape);
    prepare(in, s, blas, flush, opt, fp64);
    if (chooser) {
      ++shape_index;
      for (const ResultRow& r : run_auto(*chooser, in, sms, s, blas, flush, opt)) {
        rows.push_back(r);
        log_row(r);
      }
      continue;
    }
    for (const Config& cfg : configs_in_order(opt, mainloops, shape_index++)) {
      ResultRow r;
      r.shape = shape;
      r.sms = sms;
      r.schedule = cfg.schedule;
      r.tile = cfg.tile;
      r.cluster = cfg.cluster;
      r.swizzle = cfg.swizzle;
      r.mainloop = cuda::mainloop_name(cfg.mainloop);
      std::string label = cfg.schedule;
      if (label_tile) label += "-" + tile_text(cfg.tile);
      if (opt.clusters.size() > 1) label += "-c" + cluster_text(cfg.cluster);
      if (label_ml) label += "-" + r.mainloop;
      if (opt.swizzles.size() > 1) label += "-s" + std::to_string(cfg.swizzle);
      if (opt.l2_promotions.size() > 1) label += "-l2p" + std::to_string(cfg.l2_promotion);
      run_config(cfg, in, sms, s, flush, opt, label, r);
      set_cublas(r, in, s, blas, flush, opt);
      log_row(r);
      rows.push_back(r);
    }
  }
  return shape_index;
}

}  // namespace lw::bench
