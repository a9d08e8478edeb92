// Coverage from measurements (coverage_fit.hpp): points, bands, their checks, --coverage-only.
#include "calib/coverage_fit.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"

namespace lw {

namespace {

// The validation shapes are halved for cross_check_bands by held_out() at this share and seed.
constexpr double kHalf = 0.5;
constexpr uint64_t kHalfSeed = 1;

bool usable(double predicted) { return std::isfinite(predicted) && predicted > 0; }

// measured / predicted of `rows` (indices into `cases`) by schedule family.
std::map<std::string, std::vector<double>> ratios(const std::vector<FitCase>& cases,
                                                  const std::vector<double>& predicted,
                                                  const std::vector<size_t>& rows) {
  std::map<std::string, std::vector<double>> out;
  for (size_t i : rows) {
    if (!usable(predicted[i])) continue;
    out[schedule_family(cases[i].m->schedule)].push_back(cases[i].m->median_us / predicted[i]);
  }
  return out;
}

std::vector<size_t> every(size_t n) {
  std::vector<size_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = i;
  return out;
}

// Adds `rows` of `cases` to `check`: located, and measured against the interval.
void count_inside(const Coverage& c, const std::vector<FitCase>& cases,
                  const std::vector<double>& predicted, const std::vector<size_t>& rows,
                  BandCheck& check) {
  for (size_t i : rows) {
    if (!usable(predicted[i])) continue;
    const Measurement& m = *cases[i].m;
    const Located where = c.locate(m.problem, m.sms);
    const Interval in = c.interval(schedule_family(m.schedule), predicted[i], where);
    const bool inside = m.median_us >= in.low_us && m.median_us <= in.high_us;
    ++check.rows;
    check.inside += inside ? 1 : 0;
    check.flagged += where.extrapolated ? 1 : 0;
    check.flagged_inside += where.extrapolated && inside ? 1 : 0;
  }
}

// Each case simulated under the model file `f` (its residual trees included), per SM count.
std::vector<double> predict_cases(const ModelFile& f, const std::vector<FitCase>& cases) {
  const GpuSpec preset = gpu_preset(f.gpu);
  std::map<int64_t, std::vector<size_t>> by_sms;
  for (size_t i = 0; i < cases.size(); ++i) by_sms[cases[i].m->sms].push_back(i);
  std::vector<double> out(cases.size());
  for (const auto& [sms, idx] : by_sms) {
    const GpuSpec gpu = sms == preset.sms ? preset : gpu_with_sms(sms, &preset);
    const auto model = make_model_from_file(f, {}, gpu);
    std::vector<FitCase> part;
    for (size_t i : idx) part.push_back(cases[i]);
    const auto pred = simulate_cases(*model, part);
    for (size_t j = 0; j < idx.size(); ++j) out[idx[j]] = pred[j];
  }
  return out;
}

std::string percent(size_t part, size_t whole) {
  std::ostringstream o;
  o.precision(1);
  o << std::fixed << (whole ? 100.0 * double(part) / double(whole) : 0.0) << " %";
  return o.str();
}

std::string fixed3(double v) {
  std::ostringstream o;
  o.precision(3);
  o << std::fixed << v;
  return o.str();
}

// One row of the coverage table: rows, inside the interval, flagged, flagged inside ("" for none).
std::string check_row(const std::string& what, const BandCheck& c) {
  if (c.rows == 0) return "";
  return "| " + what + " | " + std::to_string(c.rows) + " | " + std::to_string(c.inside) + " (" +
         percent(c.inside, c.rows) + ") | " + std::to_string(c.flagged) + " (" +
         percent(c.flagged, c.rows) + ") | " + std::to_string(c.flagged_inside) + " of " +
         std::to_string(c.flagged) + " |\n";
}

}  // namespace

Coverage fit_coverage(const std::vector<Measurement>& train, const std::vector<FitCase>& held,
                      const std::vector<double>& predicted) {
  std::vector<CoveragePoint> points;
  for (const auto& m : train) points.push_back({m.problem, m.sms});
  Coverage c(std::move(points));
  c.set_bands(ratios(held, predicted, every(held.size())));
  return c;
}

BandCheck cross_check_bands(const Coverage& coverage, const std::vector<FitCase>& held,
                            const std::vector<double>& predicted, int64_t sms) {
  std::vector<size_t> halves[2], checked[2];
  for (size_t i = 0; i < held.size(); ++i) {
    const size_t h = held_out(held[i].m->problem, kHalf, kHalfSeed) ? 1 : 0;
    halves[h].push_back(i);
    const int64_t at = held[i].m->sms;
    if (sms == 0 || (sms > 0 && at == sms) || (sms < 0 && at != -sms)) checked[h].push_back(i);
  }
  BandCheck check;
  for (size_t h = 0; h < 2; ++h) {
    Coverage fitted = coverage;  // the points and threshold, the other half's bands
    fitted.set_bands(ratios(held, predicted, halves[1 - h]));
    count_inside(fitted, held, predicted, checked[h], check);
  }
  return check;
}

BandCheck check_bands(const Coverage& coverage, const std::vector<FitCase>& rows,
                      const std::vector<double>& predicted) {
  BandCheck check;
  count_inside(coverage, rows, predicted, every(rows.size()), check);
  return check;
}

std::string coverage_markdown(const Coverage& c, const std::vector<FitCase>& held,
                              const std::vector<double>& held_pred,
                              const std::vector<FitCase>& test,
                              const std::vector<double>& test_pred, int64_t full_sms) {
  std::ostringstream md;
  md << "## Where the model is right: extrapolation flags and intervals\n\n"
     << "Generated. A row is flagged `extrapolated` when its shape lies more than **"
     << fixed3(c.threshold()) << " sd** from the nearest of the model's " << c.points().size()
     << " training (shape, SM count) points (the p" << int(kThresholdQuantile * 100)
     << " of the training shapes' leave-one-out nearest-neighbour distances; features log2 M, N, "
        "K and MNK over their training spread, SM counts outside the trained span add their own "
        "term). Its interval: the p"
     << int(kIntervalLow * 100) << "-p" << int(kIntervalHigh * 100)
     << " band of measured / predicted over the validation rows of its schedule family, times "
        "the prediction; a flagged row's band is widened in log space by distance / threshold.\n\n"
     << "| family | validation rows | p" << int(kIntervalLow * 100) << " | p"
     << int(kIntervalHigh * 100) << " |\n|---|---:|---:|---:|\n";
  for (const auto& [family, b] : c.bands()) {
    md << "| " << family << " | " << b.rows << " | " << fixed3(b.low) << " | " << fixed3(b.high)
       << " |\n";
  }
  md << "\nHow the bands hold: the validation shapes halved by a hash, each half under the bands "
        "of the other; then every validation row under the bands as written; the test rows (when "
        "given) under the bands as written, read once.\n\n"
     << "| rows | n | inside the interval | flagged | flagged, inside their widened band "
        "|\n|---|---:|---:|---:|---:|\n"
     << check_row("validation, bands of the other half", cross_check_bands(c, held, held_pred))
     << check_row("... at " + std::to_string(full_sms) + " SMs",
                  cross_check_bands(c, held, held_pred, full_sms))
     << check_row("... at other SM counts", cross_check_bands(c, held, held_pred, -full_sms))
     << check_row("validation, own bands", check_bands(c, held, held_pred));
  if (!test.empty()) md << check_row("test (reported, not used)", check_bands(c, test, test_pred));
  md << "\n";
  return md.str();
}

CoverageOnlyResult add_coverage(const std::string& model_path,
                                const std::vector<std::string>& measurements,
                                const std::vector<std::string>& validation,
                                const std::vector<std::string>& test, const TileShape& tile) {
  if (measurements.empty() || validation.empty()) {
    throw std::invalid_argument("--coverage-only needs --measurements and --validation files");
  }
  const ModelFile f = read_model_file(model_path);
  std::ifstream in(model_path);
  nlohmann::json file = nlohmann::json::parse(in);
  const GpuSpec preset = gpu_preset(f.gpu);
  const auto train = read_all_measurements(measurements);
  const auto held_ms = read_all_measurements(validation);
  const auto held = build_cases(held_ms, tile, preset.ctas_per_sm);
  const auto predicted = predict_cases(f, held);
  const Coverage c = fit_coverage(train, held, predicted);
  file["coverage"] = c.to_json();
  std::vector<FitCase> test_cases;
  std::vector<double> test_pred;
  if (!test.empty()) {
    const auto test_ms = read_all_measurements(test);
    test_cases = build_cases(test_ms, tile, preset.ctas_per_sm);
    test_pred = predict_cases(f, test_cases);
  }
  const std::string summary =
      coverage_markdown(c, held, predicted, test_cases, test_pred, preset.sms);
  return {file, summary};
}

}  // namespace lw
