// Splitting one line of the project's CSVs into trimmed cells (no quoting: free text is written
// through csv_field.hpp). Shared by the shapes, measurements and configurations readers.
#pragma once
#include <sstream>
#include <string>
#include <vector>

namespace lw {

// `s` without leading and trailing blanks (spaces, tabs, a CR of a CRLF file).
inline std::string trim_csv_cell(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// The comma-separated cells of `line`, trimmed; a trailing comma is one more, empty cell.
inline std::vector<std::string> split_csv_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) cells.push_back(trim_csv_cell(cell));
  if (!line.empty() && line.back() == ',') cells.push_back("");
  return cells;
}

}  // namespace lw
