// Residuals CSV -> scatter points (see calibrate_plot.hpp).
#include "cli/calibrate_plot.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace lw::cli {

namespace {

// The residuals' split of the rows the fit saw (calibrate.cpp's label).
constexpr const char* kTrainSplit = "train";

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  return out;
}

}  // namespace

std::vector<plot::ScatterPoint> residual_points(const std::string& residuals_csv) {
  std::stringstream in(residuals_csv);
  std::string line;
  int col_pred = -1, col_meas = -1, col_label = -1, col_split = -1;
  std::vector<plot::ScatterPoint> out;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto cells = split(line);
    if (col_pred < 0) {
      for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] == "pred0_us") col_pred = static_cast<int>(i);
        if (cells[i] == "measured_us") col_meas = static_cast<int>(i);
        if (cells[i] == "decomposition") col_label = static_cast<int>(i);
        if (cells[i] == "split") col_split = static_cast<int>(i);
      }
      if (col_pred < 0 || col_meas < 0 || col_label < 0) {
        throw std::invalid_argument(
            "calibrate --plot: residuals lack pred0_us/measured_us/decomposition");
      }
      continue;
    }
    const size_t need = static_cast<size_t>(std::max({col_pred, col_meas, col_label}));
    if (cells.size() <= need) continue;
    if (col_split >= 0 && static_cast<size_t>(col_split) < cells.size() &&
        cells[size_t(col_split)] == kTrainSplit) {
      continue;
    }
    out.push_back(plot::ScatterPoint{std::strtod(cells[size_t(col_pred)].c_str(), nullptr),
                                     std::strtod(cells[size_t(col_meas)].c_str(), nullptr),
                                     cells[size_t(col_label)]});
  }
  return out;
}

}  // namespace lw::cli
