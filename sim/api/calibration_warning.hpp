// What a fitted model file extrapolates to: the cases asked of it that lie outside what it was
// calibrated on (its GPU, the kernels' tiles, its training rows' shapes and SM counts). The CLI
// prints it as a warning line, the Python module raises it as a Python warning.
#pragma once
#include <string>
#include <vector>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/types.hpp"

namespace lw {

// Whether `gpu` is the GPU model file `f` was measured on, or a partition of it (or `f` names
// none).
bool measured_on(const ModelFile& f, const GpuSpec& gpu);

// "model NAME extrapolates: ..." when cases lie outside what model file `f` (named `name` by the
// user) was calibrated on: other shapes or SM counts than its training rows' (its residual trees
// give such cases the nearest trained leaf's factor), a tile the kernels lack or a kernel tile in a
// cluster the kernels do not launch it in (when a schedule other than best runs on them), or
// another GPU than the one it was measured on. Empty otherwise.
std::string outside_calibration(const ModelFile& f, const std::string& name, const GpuSpec& gpu,
                                const std::vector<Problem>& shapes, const TileShape& tile,
                                const ClusterShape& cluster,
                                const std::vector<std::string>& schedules);

}  // namespace lw
