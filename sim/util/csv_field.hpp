// Free text (a reason, a report) as one cell of the project's CSVs, whose readers split on commas
// without quoting (sim/util/shapes_csv.cpp, calib/measurements.cpp).
#pragma once
#include <string>

namespace lw {

// `text` with every comma, quote and newline replaced by ';'.
inline std::string csv_field(std::string text) {
  for (char& c : text) {
    if (c == ',' || c == '\n' || c == '"') c = ';';
  }
  return text;
}

}  // namespace lw
