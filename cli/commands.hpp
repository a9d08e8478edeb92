// The `lastwave` subcommands; each returns the process exit code and throws on bad input.
#pragma once
#include <string>
#include <vector>

#include "cli/progress.hpp"
#include "sim/predict/predict.hpp"

namespace lw::cli {

int cmd_waves(int argc, char** argv);
int cmd_predict(int argc, char** argv);
int cmd_plan(int argc, char** argv);
int cmd_compare(int argc, char** argv);
int cmd_models(int argc, char** argv);
int cmd_demo(int argc, char** argv);
int cmd_calibrate(int argc, char** argv);
int cmd_trace(int argc, char** argv);
int cmd_plot(int argc, char** argv);

// Every (shape, schedule) row, shape-major (deterministic order), simulated on all cores;
// `progress` (optional) advances once per shape.
std::vector<PredictRow> predict_all(const std::vector<Problem>& shapes,
                                    const std::vector<std::string>& schedules,
                                    const PredictSetup& setup, Progress* progress = nullptr);

}  // namespace lw::cli
