// Synthetic measurement CSVs simulated under a known model.
#include "tests/models/synthetic.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "gpu/gpu_spec.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw::testing {

std::vector<Problem> shape_grid(int64_t lo, int64_t hi, int steps) {
  std::vector<int64_t> dims;
  for (int i = 0; i < steps; ++i) {
    const double t = steps == 1 ? 0 : static_cast<double>(i) / (steps - 1);
    dims.push_back(static_cast<int64_t>(std::lround(std::exp(
        std::log(static_cast<double>(lo)) * (1 - t) + std::log(static_cast<double>(hi)) * t))));
  }
  std::vector<Problem> out;
  for (auto m : dims)
    for (auto n : dims)
      for (auto k : dims) out.push_back(Problem{m, n, k});
  return out;
}

std::string synthetic_csv(const SyntheticSpec& spec) {
  std::string csv =
      "m,n,k,sms,decomposition,reduction,splits,grid,median_ms,p10_ms,p90_ms,tflops,cublas_ms,"
      "rel_err,sm_clock_mhz,ok,tile\n";
  const std::vector<TileShape> tiles =
      spec.tiles.empty() ? std::vector<TileShape>{spec.tile} : spec.tiles;
  const GpuSpec h200 = gpu_preset("h200");
  Simulator sim;
  for (const int64_t sms : spec.sms) {
    const GpuSpec gpu = sms == h200.sms ? h200 : gpu_with_sms(sms, &h200);
    const auto model = make_model(spec.model, spec.params, gpu);
    for (const auto& p : spec.shapes) {
      for (const auto& s : spec.schedules) {
        for (const auto& tile : tiles) {
          const Planned planned =
              plan_schedule(s, p, tile, GpuShape{sms, 1}, Reduction::Deterministic);
          SimOptions opt;
          opt.sms = sms;
          const double us = sim.run(planned.plan, *model, opt).makespan;
          const double ms = us / 1000.0;
          const double tflops = 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) *
                                static_cast<double>(p.k) / (us * 1e6);
          char line[256];
          std::snprintf(
              line, sizeof line,
              "%lld,%lld,%lld,%lld,%s,deterministic,%lld,%lld,%.6f,%.6f,%.6f,%.2f,%.6f,1e-3,1980,1,"
              "%lldx%lldx%lld\n",
              static_cast<long long>(p.m), static_cast<long long>(p.n), static_cast<long long>(p.k),
              static_cast<long long>(sms), s.c_str(), static_cast<long long>(planned.splits),
              static_cast<long long>(planned.plan.grid), ms, ms, ms, tflops, ms,
              static_cast<long long>(tile.m), static_cast<long long>(tile.n),
              static_cast<long long>(tile.k));
          csv += line;
        }
      }
    }
  }
  return csv;
}

std::string small_synthetic_csv(const std::string& dir) {
  SyntheticSpec spec;
  spec.shapes = shape_grid(512, 4096, 3);
  spec.schedules = {"dp", "splitk:2", "streamk"};
  spec.sms = {132, 64};
  const std::string csv = dir + "/good.csv";
  write_file_atomically(csv, synthetic_csv(spec));
  return csv;
}

std::string temp_dir(const std::string& name) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::filesystem::path dir = std::filesystem::path(base ? base : "/tmp") / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace lw::testing
