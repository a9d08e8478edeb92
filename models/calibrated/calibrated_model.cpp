// The `calibrated` cost model: a k-tile costs the slowest of six smoothly combined pipes, plus
// fixed costs; fixups and epilogues scale with tile area and bytes. How each term is priced:
// the comment above the model class below.
#include "models/calibrated/calibrated_model.hpp"

#include <algorithm>
#include <cmath>

#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/config_list.hpp"

namespace lw {

namespace {

constexpr double kUsPerS = 1e6;
constexpr double kFlopsPerTflop = 1e12;
constexpr double kBytesPerGb = 1e9;
// The tile the per-tile constants are quoted for; other tiles scale them by output area.
constexpr double kReferenceTileElems = 128.0 * 128.0;
// (sqrt(5) - 1) / 2: multiples of it modulo 1 fill [0, 1) as evenly as any sequence can.
constexpr double kGoldenRatioConjugate = 0.6180339887498949;
// An in-place add reads the workspace tile and writes it back.
constexpr double kReadAndWrite = 2.0;
// SM speed classes of sm_speed_spread (slowest = 1 + spread, fastest = 1).
constexpr double kSpeedClasses = 8.0;

// What a k-tile of a plan computes and moves, none of it a fitted parameter (traffic.hpp). The
// simulator asks iter_time ~75 times per run, at every new busy-SM count or working set, so it is
// computed once per plan and thread: the one kept is recomputed when any plan field it reads
// differs (a new plan).
struct KtileGeometry {
  Problem problem{-1, -1, -1};  // the key: every plan field read below
  TileShape tile;
  ClusterShape cluster;
  int64_t tiles_m = -1, tiles_n = -1;
  double flops = 0, l2_lines = 0, operand_rows = 0, extra_sectors_per_row = 0, operand_bytes = 0,
         oob_rows = 0, smem_bytes = 0, stages = 0;
  bool clustered = false;
  bool cluster_reduce = false;  // the splitk-dsm form: its own ring depth

  bool of(const Plan& p) const {
    return problem.m == p.problem.m && problem.n == p.problem.n && problem.k == p.problem.k &&
           tile.m == p.tile.m && tile.n == p.tile.n && tile.k == p.tile.k &&
           cluster.m == p.cluster.m && cluster.n == p.cluster.n && tiles_m == p.tiles_m &&
           tiles_n == p.tiles_n && cluster_reduce == p.cluster_reduce;
  }
};

KtileGeometry compute_ktile_geometry(const Plan& p) {
  KtileGeometry g;
  g.problem = p.problem;
  g.tile = p.tile;
  g.cluster = p.cluster;
  g.tiles_m = p.tiles_m;
  g.tiles_n = p.tiles_n;
  g.flops = traffic::flops_per_iter(p.tile);
  // The rows the kernel reads: padded to staged_row_pitch where it stages them (K % 8 != 0).
  const int64_t pitch = staged_row_pitch(p.problem.k);
  g.l2_lines = traffic::cta_l2_requests_per_iter(p.tile, p.cluster, pitch);
  g.operand_rows = traffic::cta_operand_rows(p.tile, p.cluster);
  g.extra_sectors_per_row = traffic::extra_sectors_per_row(pitch);
  g.operand_bytes = traffic::cta_operand_bytes_per_iter(p.tile, p.cluster);
  g.oob_rows = traffic::cta_oob_rows(p);
  g.smem_bytes = traffic::wgmma_smem_bytes_per_iter(p.tile);
  g.cluster_reduce = p.cluster_reduce;
  g.stages = static_cast<double>(wgmma_stages(p.tile, p.cluster_reduce));
  g.clustered = clustered(p);
  return g;
}

const KtileGeometry& ktile_geometry(const Plan& p) {
  thread_local KtileGeometry kept;
  if (!kept.of(p)) kept = compute_ktile_geometry(p);
  return kept;
}

}  // namespace

double combine_pipes(double mma, double l2, double dram, double oob, double smem, double latency) {
  static_assert(kPipeOverlapExponent == 4.0, "the fourth power and root below are unrolled");
  const auto fourth = [](double x) { return (x * x) * (x * x); };
  return std::sqrt(std::sqrt(fourth(mma) + fourth(l2) + fourth(dram) + fourth(oob) + fourth(smem) +
                             fourth(latency)));
}

// How the `calibrated` model prices a plan (tile-aware). One MAC iteration (k-tile) costs the
// slowest of six pipes, each derived from what the k-tile computes and moves — tensor FLOPs and
// shared-memory operand reads at the SM's rates; L2 requests, DRAM bytes and out-of-bounds box rows
// at the busy SMs' share of the GPU's throughput; the load latency over the kernel's ring of stages
// — smoothly combined (the L2 pipe charged for split sectors too when a row pitch is not 32-byte
// aligned), plus fixed costs per k-tile (one more in a cluster) and a penalty when K forbids vector
// loads. The DRAM bytes follow the working set in flight when l2_reuse_mib > 0
// (traffic::working_set_dram_fraction; the next wave reuses a panel slice if what one wave loads
// fits in it when wave_reuse_scale > 0), a Stream-K plan's panel reuse gaps as well when
// reuse_lag_scale > 0 (traffic::gap_dram_fraction, against reuse_lag_l2_mib), else the footprint
// rule. SMs run at spread speeds (sm_spread), and slower once the power limit lowers the clock
// (clock_stretch, when power_throttle > 0). Fixups and epilogues scale with the tile's area, plus
// their tile bytes at the busy SMs' share of tile_io_gb_per_s (priced at the action's start). MAC
// loops are processor-shared (CostNeeds::shared_rate): the simulator re-rates them on every change
// of busy SMs and working set. The constants (prologue, pipeline restarts in the fixups) were
// fitted for one k step, the model file's "tile": tiles of another k step are refused
// (config_error). Clusters 1x1, 2x1 and 1x2: a CTA's A requests are divided by cluster.n and its B
// requests by cluster.m (multicast); a file that lists the clusters its measurements covered
// ("clusters") refuses the others.
namespace {

class CalibratedModel final : public CostModel {
 public:
  CalibratedModel(const ParamValues& v, const GpuSpec& gpu, const FitScope& scope)
      : mma_tflops_(v.at("mma_tflops_per_sm")),
        l2_lines_per_us_(v.at("l2_lines_per_us")),
        sector_split_(v.at("sector_split_lines")),
        dram_gb_per_s_(v.at("dram_gb_per_s")),
        tile_io_gb_per_s_(v.at("tile_io_gb_per_s")),
        ktile_fixed_(v.at("ktile_fixed_us")),
        l2_reuse_mib_(v.at("l2_reuse_mib")),
        lag_scale_(v.at("reuse_lag_scale")),
        lag_l2_mib_(v.at("reuse_lag_l2_mib")),
        wave_reuse_(v.at("wave_reuse_scale")),
        oob_rows_per_us_(v.at("oob_rows_per_us")),
        smem_gb_per_s_(v.at("smem_gb_per_s")),
        cluster_ktile_(v.at("cluster_ktile_us")),
        cluster_segment_(v.at("cluster_segment_us")),
        cluster_oob_(v.at("cluster_oob_stretch")),
        power_throttle_(v.at("power_throttle")),
        power_boost_us_(v.at("power_boost_us")),
        load_latency_(v.at("load_latency_us")),
        sm_spread_(v.at("sm_speed_spread")),
        pingpong_overlap_(v.at("pingpong_overlap")),
        epilogue_(v.at("epilogue_us")),
        store_(v.at("store_us")),
        load_(v.at("load_us")),
        accumulate_(v.at("accumulate_us")),
        load_round_(v.at("load_round_us")),
        dsm_saving_(v.at("dsm_partial_saving")),
        flag_(v.at("flag_us")),
        prologue_(v.at("prologue_us")),
        launch_(v.at("launch_us")),
        l2_mib_(gpu.l2_mib),
        chip_sms_(static_cast<double>(whole_chip_sms(gpu))),
        scope_(scope) {}

  CostNeeds needs(const Plan& p) const override {
    CostNeeds n;
    n.shared_rate = true;
    n.working_set = l2_reuse_mib_ > 0;
    n.panel_lag = l2_reuse_mib_ > 0 && lag_scale_ > 0;
    n.sm_spread = sm_spread_ > 0;
    n.segment_stretch = cluster_oob_ > 0 && clustered(p);
    n.clock = power_throttle_ > 0 && power_boost_us_ > 0;
    n.epilogue_overlap = pingpong_overlap_ > 0 && plan_runs_pingpong(p) ? pingpong_overlap_ : 0.0;
    return n;
  }
  double stretch(Stretch kind, const Plan& p, const LoopStart& at) const override {
    switch (kind) {
      case Stretch::SmSpread:
        return sm_spread(at.sm, at.context.sms);
      case Stretch::Segment:
        return segment_stretch(p, *at.segment);
      case Stretch::Clock:
        return clock_stretch(p, at.context, at.t, at.iter);
    }
    return 1.0;
  }
  // Every segment ends in exactly one of the epilogue, the partial store and the in-place add (a
  // Final segment's partial loads precede its epilogue), so each carries the cluster's segment
  // cost.
  double transfer(Transfer kind, const Plan& p, const Segment&,
                  const CostContext& c) const override {
    switch (kind) {
      case Transfer::Epilogue:
        return epilogue_ * area(p) + cluster_segment(p) +
               tile_io(c, traffic::output_tile_bytes(p.tile));
      case Transfer::PartialStore:
        // (Summed in the order of the model files fitted before the dsm term, to the bit.)
        if (p.cluster_reduce) return dsm_share() * partial_io(store_, p, c) + cluster_segment(p);
        return store_ * area(p) + cluster_segment(p) +
               tile_io(c, traffic::partial_tile_bytes(p.tile));
      case Transfer::PartialLoad:
        return (p.cluster_reduce ? dsm_share() : 1.0) * partial_io(load_, p, c);
      case Transfer::PartialAccumulate:
        return accumulate_ * area(p) + cluster_segment(p) +
               tile_io(c, kReadAndWrite * traffic::partial_tile_bytes(p.tile));
    }
    return 0.0;
  }
  // A partial's store or load through L2 at `per_tile` (store_us, load_us) and its tile I/O; a
  // splitk-dsm partial (its splits meet in the owner's shared memory) costs dsm_share() of it.
  double partial_io(double per_tile, const Plan& p, const CostContext& c) const {
    return per_tile * area(p) + tile_io(c, traffic::partial_tile_bytes(p.tile));
  }
  double dsm_share() const { return 1.0 - dsm_saving_; }
  // A staging copy (plan_stages_operands) is one more launch that streams its bytes at the
  // operands' DRAM rate.
  FixedCosts fixed_costs(const Plan& p) const override {
    const double bytes = traffic::staging_bytes(p);
    const double staging =
        bytes > 0 ? launch_ + bytes / (dram_gb_per_s_ * kBytesPerGb) * kUsPerS : 0.0;
    return FixedCosts{flag_, prologue_, launch_, staging, load_round_};
  }
  double iter_time(const Plan& p, const CostContext& c) const override {
    const KtileGeometry& g = ktile_geometry(p);
    const double busy = static_cast<double>(std::max<int64_t>(1, c.busy_sms));
    const double mma = g.flops / (mma_tflops_ * kFlopsPerTflop) * kUsPerS;
    // Per CTA: a cluster's CTAs load multicast slices of the operand they share (traffic.hpp).
    const double l2 = busy * l2_requests(g) / l2_lines_per_us_;
    const double dram_bytes = g.operand_bytes * dram_share(p, busy, c);
    const double dram = busy * dram_bytes / (dram_gb_per_s_ * kBytesPerGb) * kUsPerS;
    // Out-of-bounds box rows (zero-filled; ncu: no L2 request, no DRAM byte) hold up the load
    // path at a rate the busy SMs share.
    const double oob = busy * g.oob_rows / oob_rows_per_us_;
    // The tensor cores' operand reads from shared memory, at the SM's own rate.
    const double smem = g.smem_bytes / (smem_gb_per_s_ * kBytesPerGb) * kUsPerS;
    // Little's law on the ring: wgmma_stages(tile) k-tiles of loads in flight, each landing
    // load_latency_us after it was issued.
    const double latency = load_latency_ / g.stages;
    const double cluster = g.clustered ? cluster_ktile_ : 0.0;
    return combine_pipes(mma, l2, dram, oob, smem, latency) + ktile_fixed_ + cluster;
  }
  std::string time_unit() const override { return "us"; }
  // The pipeline fill and restarts were fitted for one k step; there is no rule to scale them to
  // another. Clusters: every cluster the kernels launch with (the L2 and DRAM traffic per CTA
  // divides the shared operand by the cluster's extent; no cluster-specific parameter).
  std::string config_error(const TileShape& t, const ClusterShape& c) const override {
    if (t.k != scope_.tile.k) {
      return "the calibrated model (fitted for tile " + tile_text(scope_.tile) +
             ") has no prologue_us/epilogue_us/store_us/accumulate_us for k step " +
             std::to_string(t.k);
    }
    if (!kernel_has_cluster(c)) {
      return "the calibrated model has no multicast rule for cluster " + cluster_text(c) +
             " (the kernels launch " + kernel_clusters_text() + ")";
    }
    if (!scope_.tiles.empty() && !fitted_on(t)) {
      return "the calibrated model was fitted on tiles " + tile_list_text(scope_.tiles) +
             " only: no measurement of tile " + tile_text(t) +
             " (calibrate on measurements that include it)";
    }
    if (!scope_.clusters.empty() && !fitted_on(c)) {
      return "the calibrated model was fitted on clusters " + cluster_list_text(scope_.clusters) +
             " only: no measurement of cluster " + cluster_text(c) +
             " (calibrate on measurements that include it)";
    }
    return "";
  }

  // Costs grow with load: the L2 and DRAM pipes and the tile io grow with busy SMs (rates are
  // positive, declared ranges), the tensor pipe and the fixed and unaligned costs do not depend on
  // load, and combine_pipes is nondecreasing in each. Working-set rule: busy x DRAM share is least
  // at one busy SM on one tile row and column (the in-step share times busy is at least 1 there,
  // the scattered share 0). The gap rule applies to Stream-K plans only, which
  // sim/predict/best.cpp does not bound. least_iter_time bounds the iteration time.
  LoadBound load_bound(const Plan& p, int64_t busy_sms) const override {
    return LoadBound{true, least_iter_time(p, busy_sms)};
  }

 private:
  // A cluster tile whose shared operand panel is partly past the problem (the last tile column of
  // a 2x1 plan) runs its MAC loop longer in proportion to the out-of-bounds share of the rows.
  double segment_stretch(const Plan& p, const Segment& s) const {
    return 1.0 + cluster_oob_ * traffic::cluster_shared_oob_rows(p, s.tile) /
                     static_cast<double>(p.tile.m + p.tile.n);
  }
  // The power limit lowers the clock once the chip has run a while under tensor load: a loop
  // starting at t runs 1 + power_throttle x (busy share of the chip) x (tensor pipe's share of
  // the k-tile) x r times as long, r = x^2 / (1 + x^2) in x = t / power_boost_us (a smooth ramp:
  // half the slowdown at power_boost_us).
  double clock_stretch(const Plan& p, const CostContext& c, double t, double iter) const {
    const double busy = static_cast<double>(std::max<int64_t>(1, c.busy_sms));
    const double chip_share = chip_sms_ > 0 ? std::min(1.0, busy / chip_sms_) : 1.0;
    const double tensor_share = iter > 0 ? mma_time(p) / iter : 1.0;
    const double x = std::max(0.0, t) / power_boost_us_;
    const double ramp = x * x / (1.0 + x * x);
    return 1.0 + power_throttle_ * chip_share * tensor_share * ramp;
  }
  // iter_time at `busy_sms` with no DRAM time (below the working-set and the gap rule's share
  // alike); combine_pipes is nondecreasing in each pipe and the other terms do not depend on the
  // context. The L2 and out-of-bounds pipes grow as busy_sms, the rest not at all, so
  // busy_sms / least_iter_time = 1 / ((constant / busy^4 + l2^4 + oob^4)^(1/4) + fixed / busy)
  // grows with busy_sms.
  double least_iter_time(const Plan& p, int64_t busy_sms) const {
    const KtileGeometry& g = ktile_geometry(p);
    const double busy = static_cast<double>(std::max<int64_t>(1, busy_sms));
    const double mma = g.flops / (mma_tflops_ * kFlopsPerTflop) * kUsPerS;
    const double l2 = busy * l2_requests(g) / l2_lines_per_us_;
    const double oob = busy * g.oob_rows / oob_rows_per_us_;
    const double smem = g.smem_bytes / (smem_gb_per_s_ * kBytesPerGb) * kUsPerS;
    const double latency = load_latency_ / g.stages;
    const double cluster = g.clustered ? cluster_ktile_ : 0.0;
    return combine_pipes(mma, l2, 0.0, oob, smem, latency) + ktile_fixed_ + cluster;
  }
  // kSpeedClasses SM speed classes evenly spaced over [0, sm_speed_spread] at the whole chip's
  // full load, assigned in a fixed low-discrepancy order (the golden-ratio Weyl sequence), so any
  // run of consecutive SMs holds slow and fast ones alike. Few classes keep a wave's loop ends on
  // few distinct times. The simulator scales by the busy share of the `sms` it runs on at the
  // loop's start; the spread is contention, so a partition of the chip (the other SMs idle)
  // scales it by its share of the chip as well.
  double sm_spread(int64_t sm, int64_t sms) const {
    const double position = static_cast<double>(sm) * kGoldenRatioConjugate;
    const double speed_class = std::floor((position - std::floor(position)) * kSpeedClasses);
    const double chip_share =
        chip_sms_ > 0 ? std::min(1.0, static_cast<double>(sms) / chip_sms_) : 1.0;
    return sm_spread_ * speed_class / (kSpeedClasses - 1) * chip_share;
  }
  bool fitted_on(const ClusterShape& c) const {
    return std::any_of(scope_.clusters.begin(), scope_.clusters.end(),
                       [&](const ClusterShape& f) { return same_cluster(f, c); });
  }
  bool fitted_on(const TileShape& t) const {
    return std::any_of(scope_.tiles.begin(), scope_.tiles.end(),
                       [&](const TileShape& f) { return same_tile(f, t); });
  }
  double dram_share(const Plan& p, double busy, const CostContext& c) const {
    if (l2_reuse_mib_ <= 0) return traffic::dram_fraction(p, l2_mib_);
    // A plan with known gaps is priced by them, without the working set (CostNeeds::panel_lag).
    if (lag_scale_ > 0 && c.panel_lag != nullptr && c.panel_lag->known) {
      return traffic::gap_dram_fraction(p, busy, *c.panel_lag, lag_scale_,
                                        lag_l2_mib_ > 0 ? lag_l2_mib_ : l2_reuse_mib_);
    }
    return traffic::working_set_dram_fraction(p, busy, c.active_tile_rows, c.active_tile_cols,
                                              l2_reuse_mib_, wave_reuse_);
  }
  // A CTA's L2 requests per k-tile: its lines, and sector_split_lines for each sector a row slice
  // that starts inside a sector touches beyond them.
  double l2_requests(const KtileGeometry& g) const {
    if (sector_split_ <= 0) return g.l2_lines;
    return g.l2_lines + sector_split_ * g.operand_rows * g.extra_sectors_per_row;
  }
  // A tile written or read at a segment's end, at the busy SMs' share of tile_io_gb_per_s; nothing
  // at the off rate (model files without the term predict exactly as before).
  double tile_io(const CostContext& c, double bytes) const {
    if (tile_io_gb_per_s_ >= kTileIoOffRate) return 0.0;
    const double busy = static_cast<double>(std::max<int64_t>(1, c.busy_sms));
    return busy * bytes / (tile_io_gb_per_s_ * kBytesPerGb) * kUsPerS;
  }
  double cluster_segment(const Plan& p) const { return clustered(p) ? cluster_segment_ : 0.0; }
  // The tensor pipe's time for one k-tile at the SM's rate.
  double mma_time(const Plan& p) const {
    return traffic::flops_per_iter(p.tile) / (mma_tflops_ * kFlopsPerTflop) * kUsPerS;
  }
  static double area(const Plan& p) {
    return static_cast<double>(p.tile.m) * static_cast<double>(p.tile.n) / kReferenceTileElems;
  }
  double mma_tflops_, l2_lines_per_us_, sector_split_, dram_gb_per_s_, tile_io_gb_per_s_,
      ktile_fixed_, l2_reuse_mib_, lag_scale_, lag_l2_mib_, wave_reuse_, oob_rows_per_us_,
      smem_gb_per_s_, cluster_ktile_, cluster_segment_, cluster_oob_, power_throttle_,
      power_boost_us_, load_latency_, sm_spread_, pingpong_overlap_, epilogue_, store_, load_,
      accumulate_, load_round_, dsm_saving_, flag_, prologue_, launch_, l2_mib_, chip_sms_;
  // The tile, tiles and clusters the parameters were fitted on (empty lists: every kernel tile
  // and cluster).
  FitScope scope_;
};

}  // namespace

std::unique_ptr<CostModel> make_calibrated(const ParamValues& v, const GpuSpec& gpu,
                                           const FitScope& scope) {
  return std::make_unique<CalibratedModel>(v, gpu, scope);
}

}  // namespace lw
