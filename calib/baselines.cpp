// Feature extraction and weighted least-squares fits of the baseline predictors.
#include "calib/baselines.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <map>

#include "models/registry.hpp"
#include "models/roofline/traffic.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/decomp/walk.hpp"

namespace lw {

namespace {

// The k-tile the tile scale is quoted for (the calibrated model's reference tile, k step 64).
constexpr double kReferenceTileMacs = 128.0 * 128.0 * 64.0;

double indicator(bool b) { return b ? 1.0 : 0.0; }

// Plan work units (cluster tiles for a cluster plan) resident at once: a cluster takes as many
// SMs as it has CTAs.
int64_t resident_units(const FitCase& c) {
  return std::max<int64_t>(1,
                           resident_clusters(GpuShape{c.m->sms, c.ctas_per_sm, 0}, c.plan.cluster));
}

}  // namespace

CaseTraits case_traits(const FitCase& c) {
  const TileShape& t = c.plan.tile;
  const int64_t pitch = staged_row_pitch(c.plan.problem.k);  // the rows the kernel reads
  const int64_t row_bytes = pitch * static_cast<int64_t>(kBf16Bytes);
  CaseTraits out;
  out.tile_scale = static_cast<double>(t.m) * static_cast<double>(t.n) * static_cast<double>(t.k) /
                   kReferenceTileMacs;
  out.misaligned = row_bytes % kL2LineBytes != 0;
  out.clustered = c.plan.cluster.m * c.plan.cluster.n > 1;
  out.split_sectors = traffic::extra_sectors_per_row(pitch);
  out.cluster_oob_share = traffic::max_cluster_oob_share(c.plan);
  return out;
}

const std::vector<std::string>& a1_terms() {
  static const std::vector<std::string> terms = {"a (us)",
                                                 "b (us, peers>1)",
                                                 "c (us/ref k-tile)",
                                                 "d (us/peer)",
                                                 "e (us/ref k-tile, misaligned)",
                                                 "f (us/ref k-tile, cluster>1)",
                                                 "g (us/segment, cluster>1)",
                                                 "h (us/ref k-tile x split sectors per row)",
                                                 "i (us/ref k-tile x cluster OOB share)"};
  return terms;
}

const std::vector<std::string>& roofline_wave_terms() {
  static const std::vector<std::string> terms = {"a (us)",
                                                 "b (scale)",
                                                 "c (us/ref k-tile)",
                                                 "d (us/ref k-tile, misaligned)",
                                                 "e (us/ref k-tile, cluster>1)",
                                                 "f (us/wave, cluster>1)",
                                                 "g (us/ref k-tile x split sectors per row)",
                                                 "h (us/ref k-tile x cluster OOB share)"};
  return terms;
}

std::vector<double> a1_features(const FitCase& c) {
  const Plan& p = c.plan;
  const int64_t resident = resident_units(c);
  std::vector<int64_t> slot_iters(static_cast<size_t>(std::min(resident, p.grid)) + 1, 0);
  std::vector<int64_t> slot_segments(slot_iters.size(), 0);
  std::map<int64_t, int64_t> contributors;
  for (int64_t cta = 0; cta < p.grid; ++cta) {
    CtaWalk w;
    walk_begin(p, cta, w);
    Segment s;
    while (walk_next(p, w, s)) {
      slot_iters[static_cast<size_t>(cta % resident)] += segment_iters(s);
      ++slot_segments[static_cast<size_t>(cta % resident)];
      ++contributors[s.tile];
    }
  }
  int64_t peers = 1;
  for (const auto& [tile, n] : contributors) peers = std::max(peers, n);
  const auto busiest = std::max_element(slot_iters.begin(), slot_iters.end());
  const int64_t iters = *busiest;
  const int64_t segments = slot_segments[static_cast<size_t>(busiest - slot_iters.begin())];
  const CaseTraits t = case_traits(c);
  const double work = static_cast<double>(iters) * t.tile_scale;
  return {1.0,
          indicator(peers > 1),
          work,
          static_cast<double>(peers - 1),
          work * indicator(t.misaligned),
          work * indicator(t.clustered),
          static_cast<double>(segments) * indicator(t.clustered),
          work * t.split_sectors,
          work * t.cluster_oob_share};
}

std::vector<double> a1_features_fn(const FitCase& c, const GpuSpec&) { return a1_features(c); }

std::vector<double> roofline_wave_features(const FitCase& c, const GpuSpec& preset) {
  const Plan& p = c.plan;
  const int64_t sms = c.m->sms;
  const GpuSpec gpu = sms == preset.sms ? preset : gpu_with_sms(sms, &preset);
  const auto model = make_model("roofline", {}, gpu);
  const int64_t resident = resident_units(c);
  const int64_t units = std::max<int64_t>(1, p.work_units);
  const int64_t waves = ceil_div(units, resident);
  const int64_t per_unit = ceil_div(p.tiles * p.k_tiles, units);
  Segment one;
  one.k_begin = 0;
  one.k_end = 1;
  const double t_iter = mac_time(*model, p, one, CostContext{sms, std::min(sms, units)});
  const double iters = static_cast<double>(waves * per_unit);
  const CaseTraits t = case_traits(c);
  const double work = iters * t.tile_scale;
  return {1.0,
          iters * t_iter,
          work,
          work * indicator(t.misaligned),
          work * indicator(t.clustered),
          static_cast<double>(waves) * indicator(t.clustered),
          work * t.split_sectors,
          work * t.cluster_oob_share};
}

LinearBaseline fit_baseline(const std::string& name, const std::vector<std::string>& terms,
                            const std::vector<FitCase>& train, const GpuSpec& preset,
                            FeatureFn features) {
  const auto rows = static_cast<Eigen::Index>(train.size());
  const auto cols = static_cast<Eigen::Index>(terms.size());
  Eigen::MatrixXd a(rows, cols);
  Eigen::VectorXd b(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const FitCase& c = train[static_cast<size_t>(i)];
    const auto f = features(c, preset);
    const double w = 1.0 / c.m->median_us;  // relative error
    for (Eigen::Index j = 0; j < cols; ++j) a(i, j) = f[static_cast<size_t>(j)] * w;
    b[i] = 1.0;
  }
  const Eigen::VectorXd x = a.colPivHouseholderQr().solve(b);
  LinearBaseline out{name, terms, {}};
  for (Eigen::Index j = 0; j < cols; ++j) out.coef.push_back(x[j]);
  return out;
}

std::vector<double> predict_baseline(const LinearBaseline& b, const std::vector<FitCase>& cases,
                                     const GpuSpec& preset, FeatureFn features) {
  std::vector<double> out;
  out.reserve(cases.size());
  for (const auto& c : cases) {
    const auto f = features(c, preset);
    double t = 0;
    for (size_t j = 0; j < f.size(); ++j) t += b.coef[j] * f[j];
    out.push_back(t);
  }
  return out;
}

}  // namespace lw
