// CSV parsing and validation of kernel measurements; the shape-hash split.
#include "calib/measurements.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "sim/decomp/planners/schedule.hpp"
#include "sim/util/atomic_file.hpp"
#include "sim/util/csv_cells.hpp"
#include "sim/util/hash.hpp"

namespace lw {

namespace {

constexpr double kUsPerMs = 1000.0;

double parse_number(const std::string& text, const std::string& column, const std::string& where) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0) {
    throw std::invalid_argument(where + ": column " + column + ": '" + text + "' is not a number");
  }
  if (!std::isfinite(v)) {
    throw std::invalid_argument(where + ": column " + column + ": '" + text +
                                "' is not a finite number");
  }
  return v;
}

int64_t parse_count(const std::string& text, const std::string& column, const std::string& where,
                    int64_t min) {
  const double v = parse_number(text, column, where);
  // 2^63 as a double: from there on the conversion to int64_t is undefined.
  constexpr double kInt64Limit = 9223372036854775808.0;
  if (v != std::floor(v) || v < static_cast<double>(min) || v >= kInt64Limit) {
    throw std::invalid_argument(where + ": column " + column + ": '" + text +
                                "' is not an integer >= " + std::to_string(min));
  }
  return static_cast<int64_t>(v);
}

}  // namespace

namespace {

// A `tile` cell "MxNxK" (lastwave-bench's tile column).
TileShape parse_tile_cell(const std::string& text, const std::string& where) {
  TileShape t;
  char x1 = 0, x2 = 0;
  std::istringstream in(text);
  if (!(in >> t.m >> x1 >> t.n >> x2 >> t.k) || x1 != 'x' || x2 != 'x' || t.m < 1 || t.n < 1 ||
      t.k < 1 || in.peek() != std::char_traits<char>::eof()) {
    throw std::invalid_argument(where + ": bad tile '" + text + "' (expected MxNxK)");
  }
  return t;
}

// A `cluster` cell "MxN" (lastwave-bench's cluster column).
ClusterShape parse_cluster_cell(const std::string& text, const std::string& where) {
  ClusterShape c;
  char x = 0;
  std::istringstream in(text);
  if (!(in >> c.m >> x >> c.n) || x != 'x' || c.m < 1 || c.n < 1 ||
      in.peek() != std::char_traits<char>::eof()) {
    throw std::invalid_argument(where + ": bad cluster '" + text + "' (expected MxN)");
  }
  return c;
}

}  // namespace

const std::vector<std::string>& required_measurement_columns() {
  static const std::vector<std::string> cols = {
      "m",         "n",      "k",         "sms",       "decomposition",
      "reduction", "splits", "grid",      "median_ms", "p10_ms",
      "p90_ms",    "tflops", "cublas_ms", "rel_err",   "sm_clock_mhz"};
  return cols;
}

std::vector<Measurement> read_measurements(const std::string& path, int64_t* skipped) {
  std::istringstream in(read_file(path));
  std::string line;
  int64_t line_no = 0;
  std::map<std::string, size_t> col;
  std::vector<Measurement> out;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string t = trim_csv_cell(line);
    if (t.empty() || t[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(line_no);
    const auto cells = split_csv_cells(t);
    if (col.empty()) {
      for (size_t i = 0; i < cells.size(); ++i) {
        // A repeated name would leave the row-width check below short of the header's width.
        if (!col.emplace(cells[i], i).second) {
          throw std::invalid_argument(where + ": duplicate column '" + cells[i] + "'");
        }
      }
      for (const auto& c : required_measurement_columns()) {
        if (!col.count(c)) throw std::invalid_argument(where + ": missing column '" + c + "'");
      }
      continue;
    }
    if (cells.size() != col.size()) {
      throw std::invalid_argument(where + ": expected " + std::to_string(col.size()) +
                                  " values, got " + std::to_string(cells.size()));
    }
    auto cell = [&](const std::string& c) { return cells[col.at(c)]; };
    for (const auto& c : required_measurement_columns()) {
      if (c != "decomposition" && c != "reduction") parse_number(cell(c), c, where);
    }
    if (col.count("ok") && parse_number(cell("ok"), "ok", where) == 0) {
      if (skipped) ++*skipped;
      continue;
    }
    Measurement m;
    m.problem =
        Problem{parse_count(cell("m"), "m", where, 1), parse_count(cell("n"), "n", where, 1),
                parse_count(cell("k"), "k", where, 1)};
    m.sms = parse_count(cell("sms"), "sms", where, 1);
    m.grid = parse_count(cell("grid"), "grid", where, 0);
    m.schedule = cell("decomposition");
    m.reduction = cell("reduction");
    try {
      parse_schedule_list(m.schedule);
      parse_reduction(m.reduction);
    } catch (const std::exception& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
    if (m.schedule.find(',') != std::string::npos || m.schedule == "best") {
      throw std::invalid_argument(where + ": decomposition must name one schedule, got '" +
                                  m.schedule + "'");
    }
    // lastwave-bench's tile swizzle: the calibration replans each row with the planners' plain
    // raster, so a swizzled row would be fitted as a plan it did not run.
    if (col.count("swizzle") && parse_number(cell("swizzle"), "swizzle", where) != 1) {
      throw std::invalid_argument(where + ": swizzle " + cell("swizzle") +
                                  ": calibration fits plain-raster plans (swizzle 1) only");
    }
    if (col.count("consumers")) {
      m.consumers = cell("consumers");
      if (!m.consumers.empty() && m.consumers != "pingpong" && m.consumers != "cooperative") {
        throw std::invalid_argument(where + ": consumers '" + m.consumers +
                                    "' is neither pingpong nor cooperative");
      }
    }
    if (col.count("tile")) m.tile = parse_tile_cell(cell("tile"), where);
    if (col.count("cluster") && !cell("cluster").empty()) {
      m.cluster = parse_cluster_cell(cell("cluster"), where);
    }
    m.median_us = parse_number(cell("median_ms"), "median_ms", where) * kUsPerMs;
    m.p10_us = parse_number(cell("p10_ms"), "p10_ms", where) * kUsPerMs;
    m.p90_us = parse_number(cell("p90_ms"), "p90_ms", where) * kUsPerMs;
    if (m.median_us <= 0) throw std::invalid_argument(where + ": median_ms must be > 0");
    m.file = path;
    m.line = line_no;
    out.push_back(m);
  }
  if (col.empty()) throw std::invalid_argument(path + ": empty measurements file (no header)");
  return out;
}

ConfigKey config_key(const Measurement& m) {
  return {m.problem.m, m.problem.n, m.problem.k, m.sms,       m.schedule, m.reduction,
          m.tile.m,    m.tile.n,    m.tile.k,    m.cluster.m, m.cluster.n};
}

std::vector<Measurement> read_all_measurements(const std::vector<std::string>& paths,
                                               int64_t* skipped) {
  std::vector<Measurement> all;
  std::map<ConfigKey, std::string> seen;
  for (const auto& path : paths) {
    for (auto& m : read_measurements(path, skipped)) {
      const ConfigKey key = config_key(m);
      const std::string where = m.file + ":" + std::to_string(m.line);
      const auto [it, fresh] = seen.emplace(key, where);
      if (!fresh) {
        throw std::invalid_argument(where + ": duplicate row (same m,n,k,sms,decomposition," +
                                    "reduction,tile,cluster as " + it->second + ")");
      }
      all.push_back(std::move(m));
    }
  }
  if (all.empty()) throw std::invalid_argument("no usable measurement rows");
  return all;
}

bool held_out(const Problem& p, double holdout, uint64_t seed) {
  const auto mix = splitmix64;
  const uint64_t h =
      mix(mix(mix(mix(seed) ^ static_cast<uint64_t>(p.m)) ^ static_cast<uint64_t>(p.n)) ^
          static_cast<uint64_t>(p.k));
  constexpr double kTwoTo53 = 9007199254740992.0;
  return static_cast<double>(h >> 11) / kTwoTo53 < holdout;
}

}  // namespace lw
