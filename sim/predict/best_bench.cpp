// best_bench: CPU time of choose_best() per shape on ONE core (the figure docs/PERFORMANCE.md
// records). Usage: best_bench MODEL.json|MODEL SHAPES.csv [STRIDE [TILES]]: every STRIDE-th shape,
// searching TILES (a kernel tile list, default all).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/predict/best.hpp"
#include "sim/util/atomic_file.hpp"
#include "sim/util/shapes_csv.hpp"

namespace {

constexpr double kUsPerS = 1e6;
constexpr double kP95 = 0.95;
constexpr double kPercent = 100.0;
constexpr double kTargetUs = 1000.0;  // issue 9: one shape's full search within 1 ms

// CPU time of this thread: the machine may be shared, so wall time would count other work.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))];
}

int run(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: best_bench MODEL.json|MODEL SHAPES.csv [STRIDE [TILES]]\n");
    return 2;
  }
  const lw::GpuSpec gpu = lw::gpu_preset("h200");
  const std::string name = argv[1];
  const bool file = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
  const auto model =
      file ? lw::make_model_from_file(lw::user_path(name), {}, gpu) : lw::make_model(name, {}, gpu);
  const auto all = lw::read_shapes_csv(lw::user_path(argv[2]));
  const size_t stride = argc > 3 ? static_cast<size_t>(std::max(1, std::atoi(argv[3]))) : 1;
  const auto tiles = argc > 4 ? lw::parse_kernel_tiles(argv[4]) : lw::model_tiles(*model);
  const auto clusters = lw::model_clusters(*model);
  const lw::GpuShape shape{gpu.sms, gpu.ctas_per_sm};
  lw::Simulator sim;
  std::vector<double> us;
  int64_t simulated = 0;
  for (size_t i = 0; i < all.size(); i += stride) {
    const double t0 = thread_cpu_s();
    const auto b =
        lw::choose_best(all[i], shape, lw::Reduction::Deterministic, *model, tiles, clusters, sim);
    us.push_back((thread_cpu_s() - t0) * kUsPerS);
    simulated += b.simulated;
  }
  double total = 0;
  size_t within = 0;
  for (double u : us) {
    total += u;
    within += u <= kTargetUs;
  }
  std::printf(
      "%zu shapes x %zu tiles x %zu clusters x %zu decompositions (%lld simulated), one thread\n"
      "CPU time per shape: mean %.0f us, median %.0f us, p95 %.0f us, max %.0f us; "
      "%.0f%% of shapes within %.0f us\n",
      us.size(), tiles.size(), clusters.size(), lw::best_decompositions().size(),
      static_cast<long long>(simulated), total / static_cast<double>(us.size()),
      percentile(us, 0.5), percentile(us, kP95), percentile(us, 1.0),
      kPercent * static_cast<double>(within) / static_cast<double>(us.size()), kTargetUs);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "best_bench: error: %s\n", e.what());
    return 2;
  }
}
