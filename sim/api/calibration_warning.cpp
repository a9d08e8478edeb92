// The extrapolation warning's text (calibration_warning.hpp).
#include "sim/api/calibration_warning.hpp"

#include <algorithm>

#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/config_list.hpp"

namespace lw {

namespace {

// Whether a schedule other than best (whose candidates are kernel tiles) runs on --tile.
bool uses_tile_option(const std::vector<std::string>& schedules) {
  return std::any_of(schedules.begin(), schedules.end(),
                     [](const std::string& s) { return s != "best"; });
}

// What lies outside the file's training rows (empty when it records none).
std::vector<std::string> outside_training_rows(const ModelFile& f, const GpuSpec& gpu,
                                               const std::vector<Problem>& shapes,
                                               const TileShape& tile, const ClusterShape& cluster,
                                               const std::vector<std::string>& schedules) {
  std::vector<std::string> outside;
  const TrainingRange& r = f.training_range;
  if (r.empty()) return outside;
  if (uses_tile_option(schedules)) {
    if (kernel_tile_index(tile) < 0) {
      outside.push_back("tile " + tile_text(tile) + " is not one of the kernels' (" +
                        kernel_tiles_text() + "), which its measurements ran");
    } else if (!kernel_has_config(tile, cluster)) {
      outside.push_back("the kernels do not launch tile " + tile_text(tile) + " in cluster " +
                        cluster_text(cluster) + ", so none of its measurements ran it");
    }
  }
  const auto out =
      std::count_if(shapes.begin(), shapes.end(), [&](const Problem& p) { return !r.holds(p); });
  if (out > 0) {
    outside.push_back(std::to_string(out) + " of " + std::to_string(shapes.size()) +
                      " shapes lie outside its training rows (" + r.text() + ")");
  }
  if (!r.holds_sms(gpu.sms)) {
    outside.push_back(std::to_string(gpu.sms) + " SMs lie outside its training rows' " +
                      std::to_string(r.least_sms) + "-" + std::to_string(r.greatest_sms));
  }
  return outside;
}

}  // namespace

bool measured_on(const ModelFile& f, const GpuSpec& gpu) {
  return f.gpu.empty() || gpu.name == f.gpu || gpu.name.rfind(f.gpu + "@", 0) == 0;
}

std::string outside_calibration(const ModelFile& f, const std::string& name, const GpuSpec& gpu,
                                const std::vector<Problem>& shapes, const TileShape& tile,
                                const ClusterShape& cluster,
                                const std::vector<std::string>& schedules) {
  std::vector<std::string> outside;
  if (!measured_on(f, gpu)) {
    outside.push_back("the GPU is " + gpu.name + ", its measurements ran on " + f.gpu);
  }
  for (auto& o : outside_training_rows(f, gpu, shapes, tile, cluster, schedules)) {
    outside.push_back(o);
  }
  if (outside.empty()) return "";
  std::string line = "model " + name + " extrapolates: ";
  for (size_t i = 0; i < outside.size(); ++i) line += (i ? "; " : "") + outside[i];
  return line;
}

}  // namespace lw
