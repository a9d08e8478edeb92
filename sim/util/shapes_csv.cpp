// Shapes CSV reader (see shapes_csv.hpp).
#include "sim/util/shapes_csv.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sim/util/csv_cells.hpp"

namespace lw {

std::vector<Problem> parse_shapes_csv(const std::string& text, const std::string& name) {
  std::stringstream in(text);
  std::string line;
  int lineno = 0;
  int col_m = -1, col_n = -1, col_k = -1;
  std::vector<Problem> shapes;
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument(name + ":" + std::to_string(lineno) + ": " + why);
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    const auto cells = split_csv_cells(line);
    if (col_m < 0) {
      for (size_t i = 0; i < cells.size(); ++i) {
        if (cells[i] == "m") col_m = static_cast<int>(i);
        if (cells[i] == "n") col_n = static_cast<int>(i);
        if (cells[i] == "k") col_k = static_cast<int>(i);
      }
      if (col_m < 0 || col_n < 0 || col_k < 0) fail("header must name columns m, n and k");
      continue;
    }
    auto field = [&](int col) -> int64_t {
      if (col >= static_cast<int>(cells.size())) fail("missing column");
      const std::string& c = cells[static_cast<size_t>(col)];
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(c.c_str(), &end, 10);
      if (c.empty() || *end != '\0' || errno != 0 || v < 1) fail("bad dimension '" + c + "'");
      return v;
    };
    shapes.push_back(Problem{field(col_m), field(col_n), field(col_k)});
  }
  if (shapes.empty()) throw std::invalid_argument(name + ": no shapes");
  return shapes;
}

std::vector<Problem> read_shapes_csv(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument("cannot read shapes file " + path);
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_shapes_csv(ss.str(), path);
}

}  // namespace lw
