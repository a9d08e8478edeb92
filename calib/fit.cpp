// Trace-derived start values and the Eigen Levenberg-Marquardt fit of the `calibrated` model.
#include "calib/fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unsupported/Eigen/LevenbergMarquardt>
#include <utility>

#include "calib/identify.hpp"
#include "models/calibrated/calibrated_model.hpp"
#include "models/roofline/traffic.hpp"
#include "sim/util/stats.hpp"

namespace lw {

namespace {

// Log-space parameters are clamped to start * exp(+-kMaxLogStep) so a flat direction cannot run
// off, and into the parameter's declared range (a model file must load again).
constexpr double kMaxLogStep = 12.0;
// Forward-difference step in log space for the Jacobian (one simulation of the training rows per
// free parameter and one at x: half the cost of central differences, which the fit's time is).
constexpr double kLogStep = 2e-3;
// Parameters are kept at least this large (us) so log space is defined.
constexpr double kMinParamUs = 1e-4;
constexpr double kFlopsPerTflop = 1e12;
constexpr double kUsPerS = 1e6;

ValueRange declared_range(const std::string& name) {
  return find_param(calibrated_model_info(), name, "calibrate").range;
}

// The declared range capped at the parameter's physical ceiling on `gpu` (PhysicalLimit).
ValueRange fit_range(const std::string& name, const GpuSpec& gpu) {
  // The registry's entry (calibrated_model_info() returns a copy: no reference may outlive it).
  const ParamSpec& p = find_param(find_model("calibrated"), name, "calibrate");
  ValueRange r = p.range;
  r.max = std::min(r.max, physical_upper(p, gpu));
  return r;
}

// Whether `v` sits at the physical ceiling of `name` on `gpu` (the fit pushed it there).
bool at_physical_limit(const std::string& name, double v, const GpuSpec& gpu) {
  const double upper = physical_upper(find_param(find_model("calibrated"), name, "calibrate"), gpu);
  return std::isfinite(upper) && v >= upper * (1 - kLogStep);
}

bool at_range_end(const std::string& name, double v) {
  const ValueRange r = declared_range(name);
  return v <= r.min || v >= r.max;
}

// Residuals r_i = sim_i / measured_i - 1 of the free parameters x (log of value / start).
struct MakespanFunctor : Eigen::DenseFunctor<double> {
  MakespanFunctor(const std::vector<FitCase>& cases, const GpuSpec& gpu, const ParamValues& start,
                  const std::vector<std::string>& free, std::function<void(int)> on_simulation)
      : Eigen::DenseFunctor<double>(static_cast<int>(free.size()), static_cast<int>(cases.size())),
        cases_(cases),
        gpu_(gpu),
        start_(start),
        free_(free),
        on_simulation_(std::move(on_simulation)) {
    for (const auto& name : free_) ranges_.push_back(fit_range(name, gpu_));
  }

  ParamValues params_at(const InputType& x) const {
    ParamValues p = start_;
    for (size_t i = 0; i < free_.size(); ++i) {
      const double step = std::clamp(x[static_cast<Eigen::Index>(i)], -kMaxLogStep, kMaxLogStep);
      // Into the declared range (an exclusive lower bound is never reached from log space:
      // start * exp(-kMaxLogStep) > 0).
      p[free_[i]] =
          std::clamp(start_.at(free_[i]) * std::exp(step), ranges_[i].min, ranges_[i].max);
    }
    return p;
  }

  void residuals(const InputType& x, ValueType& fvec) const {
    const auto model = make_model("calibrated", params_at(x), gpu_);
    const auto sim = simulate_cases(*model, cases_);
    fvec.resize(static_cast<Eigen::Index>(cases_.size()));
    for (size_t i = 0; i < cases_.size(); ++i) {
      const double r = sim[i] / cases_[i].m->median_us - 1.0;
      fvec[static_cast<Eigen::Index>(i)] = std::isfinite(r) ? r : 1.0;
    }
    ++simulations;
    if (on_simulation_) on_simulation_(simulations);
  }

  int operator()(const InputType& x, ValueType& fvec) const {
    residuals(x, fvec);
    ++evaluations;
    last_x_ = x;  // LM asks for the Jacobian at the point it evaluated last
    last_fvec_ = fvec;
    return 0;
  }

  int df(const InputType& x, JacobianType& fjac) const {
    fjac.resize(values(), inputs());
    ValueType at, plus;
    if (last_x_.size() == x.size() && last_x_ == x) {
      at = last_fvec_;
    } else {
      residuals(x, at);
    }
    for (int j = 0; j < inputs(); ++j) {
      InputType xp = x;
      xp[j] += kLogStep;
      residuals(xp, plus);
      fjac.col(j) = (plus - at) / kLogStep;
    }
    return 0;
  }

  const std::vector<FitCase>& cases_;
  const GpuSpec& gpu_;
  ParamValues start_;
  std::vector<std::string> free_;
  std::vector<ValueRange> ranges_;  // of the free parameters
  std::function<void(int)> on_simulation_;
  mutable int evaluations = 0;
  mutable int simulations = 0;  // of the cases: evaluations and Jacobian columns
  mutable InputType last_x_;    // the last point operator() evaluated, and its residuals
  mutable ValueType last_fvec_;
};

const char* lm_status(Eigen::LevenbergMarquardtSpace::Status s) {
  using namespace Eigen::LevenbergMarquardtSpace;
  switch (s) {
    case RelativeReductionTooSmall:
      return "converged (relative reduction small)";
    case RelativeErrorTooSmall:
      return "converged (relative step small)";
    case RelativeErrorAndReductionTooSmall:
      return "converged (step and reduction small)";
    case CosinusTooSmall:
      return "converged (gradient orthogonal)";
    case TooManyFunctionEvaluation:
      return "stopped at the evaluation limit";
    default:
      return "stopped (tolerance)";
  }
}

}  // namespace

ParamValues start_from_traces(const std::vector<TraceDoc>& traces, const ParamValues& base,
                              const TileShape& tile) {
  ParamValues p = base;
  std::vector<double> stores, loads, accumulates, epilogues;
  std::vector<std::pair<double, double>> macs;  // (iterations, us)
  int64_t sms = 0;
  for (const auto& t : traces) {
    if (t.meta.time_unit != "us") continue;
    sms = std::max(sms, t.meta.sms);
    for (const auto& ph : t.phases) {
      if (ph.name == "mac" && ph.k_end > ph.k_begin) {
        macs.emplace_back(static_cast<double>(ph.k_end - ph.k_begin), ph.dur);
      } else if (ph.name == "store") {
        stores.push_back(ph.dur);
      } else if (ph.name == "reduce") {
        (ph.role == "accumulate" ? accumulates : loads).push_back(ph.dur);
      } else if (ph.name == "epilogue") {
        epilogues.push_back(ph.dur);
      }
    }
  }
  auto set = [&](const char* name, const std::vector<double>& v) {
    if (v.empty()) return;
    const double med = median(v);
    if (med > 0) p[name] = std::max(med, kMinParamUs);
  };
  set("store_us", stores);
  set("load_us", loads);
  set("accumulate_us", accumulates);
  set("epilogue_us", epilogues);
  if (macs.size() >= 2 && sms > 0 && tile.m > 0) {
    Eigen::MatrixXd a(static_cast<Eigen::Index>(macs.size()), 2);
    Eigen::VectorXd b(static_cast<Eigen::Index>(macs.size()));
    for (size_t i = 0; i < macs.size(); ++i) {
      a(static_cast<Eigen::Index>(i), 0) = 1.0;
      a(static_cast<Eigen::Index>(i), 1) = macs[i].first;
      b[static_cast<Eigen::Index>(i)] = macs[i].second;
    }
    const Eigen::Vector2d coef = a.colPivHouseholderQr().solve(b);
    if (coef[1] > 0) {  // the slope as if compute-bound; the intercept is pipeline restart
      p["mma_tflops_per_sm"] = traffic::flops_per_iter(tile) / (coef[1] / kUsPerS) / kFlopsPerTflop;
      const double restart = std::max(coef[0], 0.0);
      for (const char* name : {"epilogue_us", "store_us", "accumulate_us"}) p[name] += restart;
    }
  }
  return p;
}

ParamValues start_from_model(const ModelFile& file, const std::string& path,
                             const ParamValues& base) {
  if (file.model != "calibrated") {
    throw std::invalid_argument(path + ": --start needs a calibrated model file, not '" +
                                file.model + "'");
  }
  ParamValues p = base;
  for (const auto& [name, v] : file.params) {
    const bool held_off = !(v > 0) || v >= kPipeOffRate;
    if (held_off || lists(file.undetermined, name) || !p.count(name)) continue;
    p[name] = v;
  }
  return p;
}

FitResult fit_calibrated(const std::vector<FitCase>& cases, const GpuSpec& gpu,
                         const ParamValues& start_in, bool scale_start, const FitOptions& options) {
  const ModelInfo& info = calibrated_model_info();
  const auto is_fixed = [&](const std::string& name) {
    return lists(options.fixed, name) || lists(options.pinned, name);
  };
  ParamValues start = resolve_params(info, start_in);
  for (auto& [name, v] : start) {
    if (!is_fixed(name)) v = std::max(v, kMinParamUs);  // fixed ones may stay 0 (term off)
  }
  if (scale_start) {
    const auto model = make_model("calibrated", start, gpu);
    const auto sim = simulate_cases(*model, cases);
    std::vector<double> ratio;
    for (size_t i = 0; i < cases.size(); ++i) {
      if (std::isfinite(sim[i]) && sim[i] > 0) ratio.push_back(cases[i].m->median_us / sim[i]);
    }
    const double s = ratio.empty() ? 0.0 : median(ratio);
    if (s > 0) {
      // Times scale up, rates down; held parameters, sizes, scales and shares keep their values.
      for (const auto& p : info.params) {
        if (is_fixed(p.name) || p.unit == "MiB" || p.unit == "x" || p.unit == "fraction") continue;
        start[p.name] = p.unit == "us" ? start[p.name] * s : start[p.name] / s;
      }
    }
  }
  std::vector<std::string> free;
  for (const auto& p : info.params) {
    if (!is_fixed(p.name)) free.push_back(p.name);
  }
  MakespanFunctor f(cases, gpu, start, free, options.on_simulation);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(free.size()));
  Eigen::LevenbergMarquardt<MakespanFunctor> lm(f);
  lm.setMaxfev(options.max_evaluations);
  const auto status = lm.minimize(x);
  FitResult r;
  r.start = start;
  r.params = f.params_at(x);
  r.evaluations = f.evaluations;
  r.status = lm_status(status);
  Eigen::VectorXd fvec;
  f.residuals(x, fvec);
  r.train_rms_rel =
      fvec.size() ? std::sqrt(fvec.squaredNorm() / static_cast<double>(fvec.size())) : 0;
  Eigen::MatrixXd jac;
  f.df(x, jac);
  // A parameter the fit pushed to its physical ceiling is held there (listed at_limit, like a
  // pinned one): its Jacobian column is the clamp's zero, so it leaves the identification.
  std::vector<bool> at_bound;
  std::vector<std::string> identified, limited;
  std::vector<Eigen::Index> columns;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    const std::string& name = free[static_cast<size_t>(j)];
    const double v = r.params.at(name);
    if (at_physical_limit(name, v, gpu)) {
      limited.push_back(name);
      continue;
    }
    identified.push_back(name);
    columns.push_back(j);
    at_bound.push_back(std::abs(x[j]) >= kMaxLogStep || v <= kMinParamUs * (1 + kLogStep) ||
                       at_range_end(name, v));
  }
  std::vector<std::string> fixed;
  for (const auto& p : info.params) {
    if (lists(options.fixed, p.name)) fixed.push_back(p.name);
  }
  r.identifiability =
      identify(jac(Eigen::all, columns), identified, r.train_rms_rel, at_bound, fixed);
  for (const auto& name : options.pinned) {
    r.identifiability.log_se[name] = 0.0;  // not estimated: held at its value
    r.identifiability.pinned.push_back(name);
  }
  for (const auto& name : limited) {
    r.identifiability.log_se[name] = 0.0;  // held at the ceiling
    r.identifiability.at_limit.push_back(name);
  }
  return r;
}

}  // namespace lw
