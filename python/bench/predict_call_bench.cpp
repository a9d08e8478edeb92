// The C++ side of the Python overhead benchmark (overhead.py): the time of one sim/api predict
// call on one shape (prepare_predict + run_predict, what lastwave.predict runs inside the GIL
// release), in microseconds per call. Usage: predict_call_bench M N K SCHEDULES CALLS
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/api/predict_run.hpp"
#include "sim/decomp/planners/schedule.hpp"

namespace {

constexpr int kArgs = 6;
constexpr int kWarmupCalls = 100;
constexpr double kMicrosPerSecond = 1e6;

// One call as the binding makes it: the request built, prepared and run.
double call_once(const lw::Problem& shape, const std::string& schedules, const lw::GpuSpec& gpu,
                 const lw::ModelSource& model) {
  lw::PredictRequest r;
  r.shapes = {shape};
  r.schedules = lw::parse_schedule_list(schedules);
  r.gpu = gpu;
  r.model = model;
  const lw::PreparedPredict prepared = lw::prepare_predict(std::move(r));
  return lw::run_predict(prepared).blocks[0][0].makespan;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != kArgs) {
    std::fprintf(stderr, "usage: predict_call_bench M N K SCHEDULES CALLS\n");
    return 2;
  }
  const lw::Problem shape{std::atoll(argv[1]), std::atoll(argv[2]), std::atoll(argv[3])};
  const std::string schedules = argv[4];
  const long calls = std::atol(argv[5]);
  const lw::GpuSpec gpu = lw::resolve_gpu(std::string("h200"), std::nullopt, nullptr);
  const lw::ModelSource model = lw::load_model_source("unit", {});
  double sink = 0;
  for (int i = 0; i < kWarmupCalls; ++i) sink += call_once(shape, schedules, gpu, model);
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) sink += call_once(shape, schedules, gpu, model);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::printf("%.3f us/call (%ld calls; checksum %.1f)\n",
              took.count() * kMicrosPerSecond / static_cast<double>(calls), calls, sink);
  return 0;
}
