// The fitter recovers known `calibrated` parameters from synthetic, noise-free measurements.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <iostream>

#include "models/calib/fit.hpp"
#include "sim/util/atomic_file.hpp"
#include "tests/models/synthetic.hpp"

namespace lw {

TEST_CASE("fit recovers known calibrated parameters") {
  testing::SyntheticSpec spec;
  spec.shapes = testing::shape_grid(256, 6144, 3);
  spec.schedules = {"dp", "splitk:2", "splitk:4", "streamk", "cutlass"};
  spec.sms = {132, 64};
  spec.params = {{"iter_us", 0.22},
                 {"iter_per_busy_sm_us", 0.0015},
                 {"iter_unaligned_us", 1.7},
                 {"iter_miss_per_busy_sm_us", 0.004},
                 {"segment_us", 0.35},
                 {"epilogue_us", 1.6},
                 {"store_us", 1.1},
                 {"load_us", 0.9},
                 {"accumulate_us", 2.1},
                 {"flag_us", 0.4},
                 {"prologue_us", 1.3},
                 {"launch_us", 5.0},
                 {"iter_ws_miss_per_busy_sm_us", 0.0},
                 {"l2_effective_mib", 50.0},
                 {"hot_line_us", 0.0}};
  const std::string dir = testing::temp_dir("fit_recovers");
  const std::string path = dir + "/synthetic.csv";
  write_file_atomically(path, testing::synthetic_csv(spec));
  const auto ms = read_all_measurements({path});
  const auto cases = build_cases(ms, spec.tile, 1);
  const auto t0 = std::chrono::steady_clock::now();
  FitOptions opt;
  opt.max_evaluations = 60;
  opt.fixed = {"iter_ws_miss_per_busy_sm_us", "l2_effective_mib",
               "hot_line_us"};  // working-set and hot-line terms off
  const FitResult r = fit_calibrated(cases, gpu_preset("h200"), {}, true, opt);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "fit: " << cases.size() << " cases, " << r.evaluations << " evaluations, " << secs
            << " s, rms " << r.train_rms_rel << ", " << r.status << "\n";
  for (const auto& [name, v] : r.params) {
    std::cout << "  " << name << " fitted " << v << " true " << spec.params.at(name) << "\n";
  }
  CHECK(r.train_rms_rel < 0.005);
  for (const char* name : {"iter_us", "iter_per_busy_sm_us", "iter_unaligned_us", "load_us",
                           "prologue_us", "launch_us"}) {
    CHECK(r.params.at(name) == doctest::Approx(spec.params.at(name)).epsilon(0.05));
  }
  // Every segment ends in exactly one of epilogue, partial store or accumulate, so only the sums
  // with the per-segment cost are identifiable, not the split between them.
  const auto sum = [](const auto& p, const char* a, const char* b) { return p.at(a) + p.at(b); };
  for (const char* name : {"epilogue_us", "store_us", "accumulate_us"}) {
    CHECK(sum(r.params, "segment_us", name) ==
          doctest::Approx(sum(spec.params, "segment_us", name)).epsilon(0.05));
  }
}

}  // namespace lw
