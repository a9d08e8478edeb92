// The extrapolation and undetermined-parameter warnings (model_warnings.hpp).
#include "cli/model_warnings.hpp"

#include <iostream>

#include "sim/api/calibration_warning.hpp"

namespace lw::cli {

void warn_outside_calibration(const std::string& command, const ModelFile& f,
                              const std::string& name, const GpuSpec& gpu,
                              const std::vector<Problem>& shapes, const TileShape& tile,
                              const ClusterShape& cluster,
                              const std::vector<std::string>& schedules) {
  const std::string text = outside_calibration(f, name, gpu, shapes, tile, cluster, schedules);
  if (!text.empty()) std::cerr << "lastwave " << command << ": warning: " << text << "\n";
}

void warn_undetermined(const std::string& command, const ModelFile& f, const std::string& name,
                       const ParamValues& overrides) {
  std::string params;
  for (const auto& p : f.undetermined) {
    if (!overrides.count(p)) params += (params.empty() ? "" : ", ") + p;
  }
  if (params.empty()) return;
  std::cerr << "lastwave " << command << ": warning: model " << name
            << ": its calibration data did not determine " << params << "; " << command
            << " applies the values as fitted, so rows that depend on them are guesses "
               "(`lastwave predict` names and refuses such cases)\n";
}

}  // namespace lw::cli
