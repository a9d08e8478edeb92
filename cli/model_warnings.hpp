// The warnings `predict` and `compare` print when the cases asked of a fitted model file lie
// outside what it was calibrated on (its GPU, the kernels' tiles, its training rows' shapes and SM
// counts), and compare's when the file holds parameters its calibration did not determine.
#pragma once
#include <string>
#include <vector>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/types.hpp"

namespace lw::cli {

// One line on stderr, "lastwave COMMAND: warning: model NAME extrapolates: ...", when cases lie
// outside what model file `f` (named `name` on the command line) was calibrated on: other shapes
// or SM counts than its training rows' (its residual trees give such cases the nearest trained
// leaf's factor), a --tile the kernels lack or a --tile / --cluster pair they do not launch (when a
// schedule other than best runs on it), or another GPU than the one it was measured on (its rates
// are that GPU's). Nothing otherwise; the command prints its predictions all the same.
void warn_outside_calibration(const std::string& command, const ModelFile& f,
                              const std::string& name, const GpuSpec& gpu,
                              const std::vector<Problem>& shapes, const TileShape& tile,
                              const ClusterShape& cluster,
                              const std::vector<std::string>& schedules);

// One line on stderr, "lastwave COMMAND: warning: model NAME: its calibration data did not
// determine ...", when model file `f` lists such parameters that `overrides` (--param) leaves as
// fitted. For `compare`, which prints every row all the same (`predict` probes each case and
// refuses those the parameters move).
void warn_undetermined(const std::string& command, const ModelFile& f, const std::string& name,
                       const ParamValues& overrides);

}  // namespace lw::cli
