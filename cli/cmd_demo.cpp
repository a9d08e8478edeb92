// `lastwave demo` (the default): the seed's Case 2 reports, reproduced by the event simulator.
#include <cstdio>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "models/registry.hpp"

namespace lw::cli {

namespace {

struct DemoCase {
  Problem problem;
  const char* gpu;
};

const DemoCase kSeedCases[] = {{{1536, 1536, 4096}, "h100-sxm"},
                               {{128, 4096, 4096}, "h100-sxm"},
                               {{3840, 3840, 4096}, "b200"},
                               {{4096, 4096, 4096}, "h100-sxm"}};

const char* const kDemoSchedules[] = {"dp",           "splitk:2", "splitk:4", "streamk",
                                      "cutlass-seed", "cutlass",  "two-tile"};

}  // namespace

int cmd_demo(int argc, char** argv) {
  po::options_description desc("lastwave demo");
  desc.add_options()("help,h", "show this help");
  po::variables_map vm;
  if (!parse_or_help(argc, argv, desc, vm, "lastwave [demo]")) return 0;
  const GpuSpec none;
  const auto model = make_model("unit", {}, none);
  std::cout << "cost model: unit (1 per MAC iteration, epilogue 2, partial store/load 2)\n\n";
  Simulator sim;
  for (const auto& c : kSeedCases) {
    const GpuSpec gpu = gpu_preset(c.gpu);
    PredictSetup setup;
    setup.gpu = GpuShape{gpu.sms, 1};
    setup.model = model.get();
    bool header = false;
    for (const char* schedule : kDemoSchedules) {
      const PredictRow r = predict(c.problem, schedule, setup, sim);
      if (!header) {
        std::printf("%ldx%ldx%ld on %s (%ld SMs): %ld tiles x %ld iters, ideal makespan %.1f\n",
                    static_cast<long>(c.problem.m), static_cast<long>(c.problem.n),
                    static_cast<long>(c.problem.k), gpu.label.c_str(), static_cast<long>(gpu.sms),
                    static_cast<long>(r.tiles), static_cast<long>(r.k_tiles), r.ideal);
        header = true;
      }
      std::string label = std::string(schedule) + " -> " + r.choice;
      if (r.choice != "DataParallel" && r.sk_units > 0) {
        label += " sk_tiles=" + std::to_string(r.sk_tiles) + " units=" + std::to_string(r.sk_units);
      }
      std::printf("  %-50s %8.1f  eff %6.1f%%\n", label.c_str(), r.makespan, 100.0 * r.efficiency);
    }
    std::printf("\n");
  }
  std::cout << "Next: lastwave predict --gpu h200 --m 1536 --n 1536 --k 4096 --schedule best\n";
  return 0;
}

}  // namespace lw::cli
