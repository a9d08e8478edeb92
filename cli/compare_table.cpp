// CompareTable: building from rows, CSV writing and reading (see compare_table.hpp).
#include "cli/compare_table.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "sim/decomp/planners/config_list.hpp"
#include "sim/util/csv_field.hpp"

namespace lw::cli {

namespace {

constexpr const char* kMakespanPrefix = "makespan_";

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) {
    while (!cell.empty() && (cell.back() == '\r' || cell.back() == ' ')) cell.pop_back();
    out.push_back(cell);
  }
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

int winner_of(const CompareTable& t, size_t shape) {
  int best = -1;
  for (size_t j = 0; j < t.schedules.size(); ++j) {
    const double v = t.at(shape, j);
    if (std::isnan(v)) continue;
    if (best < 0 || v < t.at(shape, static_cast<size_t>(best))) best = static_cast<int>(j);
  }
  return best;
}

// The coverage of the rows (when they carry it) into t's per-shape and per-row fields.
void add_coverage(const std::vector<PredictRow>& rows, CompareTable& t) {
  t.coverage = !rows.empty() && rows.front().coverage.has_value();
  if (!t.coverage) return;
  const double none = std::numeric_limits<double>::quiet_NaN();
  const size_t ns = t.schedules.size();
  for (size_t i = 0; i < t.shapes.size(); ++i) {
    const RowCoverage& first = *rows[i * ns].coverage;  // the shape's flag: every row shares it
    t.extrapolated.push_back(first.extrapolated ? 1 : 0);
    t.extrapolation.push_back(first.extrapolated ? csv_field(first.reason) : "");
    for (size_t j = 0; j < ns; ++j) {
      const RowCoverage& c = *rows[i * ns + j].coverage;
      const bool timed = std::isfinite(c.low_us) && !rows[i * ns + j].deadlock;
      t.p10_us.push_back(timed ? c.low_us : none);
      t.p90_us.push_back(timed ? c.high_us : none);
    }
  }
}

std::string interval_cell(double us) {
  if (std::isnan(us)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", us);
  return buf;
}

// Column indexes of a compare CSV's header, found by name (npos: absent).
struct CompareColumns {
  static constexpr size_t kAbsent = static_cast<size_t>(-1);
  std::vector<size_t> makespan, p10, p90;  // per schedule
  size_t best_choice = kAbsent, best_tile = kAbsent, best_cluster = kAbsent;
  size_t extrapolated = kAbsent, extrapolation = kAbsent;
};

size_t column_of(const std::vector<std::string>& header, const std::string& name) {
  for (size_t c = 0; c < header.size(); ++c) {
    if (header[c] == name) return c;
  }
  return CompareColumns::kAbsent;
}

}  // namespace

int CompareTable::index_of(const std::string& schedule) const {
  for (size_t j = 0; j < schedules.size(); ++j) {
    if (schedules[j] == schedule) return static_cast<int>(j);
  }
  return -1;
}

CompareTable compare_table(const std::vector<Problem>& shapes,
                           const std::vector<std::string>& schedules,
                           const std::vector<PredictRow>& rows, int64_t sms) {
  CompareTable t;
  t.sms = sms;
  t.schedules = schedules;
  t.shapes = shapes;
  const int best = t.index_of("best");
  for (size_t i = 0; i < shapes.size(); ++i) {
    for (size_t j = 0; j < schedules.size(); ++j) {
      const PredictRow& r = rows[i * schedules.size() + j];
      t.makespan.push_back(r.deadlock ? std::numeric_limits<double>::quiet_NaN() : r.makespan);
    }
    const PredictRow* b = best >= 0 ? &rows[i * schedules.size() + size_t(best)] : nullptr;
    t.best_choice.push_back(b && !b->deadlock ? b->choice : "");
    t.best_tile.push_back(b && !b->deadlock ? tile_text(b->tile) : "");
    t.best_cluster.push_back(b && !b->deadlock ? cluster_text(b->cluster) : "");
    t.winner.push_back(winner_of(t, i));
  }
  add_coverage(rows, t);
  return t;
}

std::string compare_csv(const CompareTable& t) {
  const bool best = t.index_of("best") >= 0;
  std::ostringstream o;
  o << "m,n,k,sms,winner";
  for (const auto& s : t.schedules) o << ',' << kMakespanPrefix << s;
  o << (best ? ",best_choice,best_tile,best_cluster" : "");
  if (t.coverage) {
    o << ",extrapolated,extrapolation";
    for (const auto& s : t.schedules) o << ",p10_" << s << ",p90_" << s;
  }
  o << "\n";
  for (size_t i = 0; i < t.shapes.size(); ++i) {
    const Problem& p = t.shapes[i];
    o << p.m << ',' << p.n << ',' << p.k << ',' << t.sms << ','
      << (t.winner[i] >= 0 ? t.schedules[size_t(t.winner[i])] : "none");
    for (size_t j = 0; j < t.schedules.size(); ++j) {
      const double v = t.at(i, j);
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4f", v);
      o << ',' << (std::isnan(v) ? "deadlock" : buf);
    }
    if (best) o << ',' << t.best_choice[i] << ',' << t.best_tile[i] << ',' << t.best_cluster[i];
    if (t.coverage) {
      o << ',' << (t.extrapolated[i] ? "true" : "false") << ',' << t.extrapolation[i];
      for (size_t j = 0; j < t.schedules.size(); ++j) {
        const size_t r = i * t.schedules.size() + j;
        o << ',' << interval_cell(t.p10_us[r]) << ',' << interval_cell(t.p90_us[r]);
      }
    }
    o << "\n";
  }
  return o.str();
}

namespace {

// The header's columns; schedules from the makespan_ columns, in order.
CompareColumns read_header(const std::vector<std::string>& cells, CompareTable& t) {
  constexpr size_t kFixed = 5;  // m,n,k,sms,winner
  if (cells.size() < kFixed + 1 || cells[0] != "m" || cells[4] != "winner") {
    throw std::invalid_argument("not a compare CSV (header m,n,k,sms,winner,makespan_...)");
  }
  CompareColumns c;
  for (size_t i = kFixed; i < cells.size(); ++i) {
    if (cells[i].rfind(kMakespanPrefix, 0) != 0) continue;
    t.schedules.push_back(cells[i].substr(std::string(kMakespanPrefix).size()));
    c.makespan.push_back(i);
  }
  c.best_choice = column_of(cells, "best_choice");
  c.best_tile = column_of(cells, "best_tile");
  c.best_cluster = column_of(cells, "best_cluster");
  c.extrapolated = column_of(cells, "extrapolated");
  c.extrapolation = column_of(cells, "extrapolation");
  t.coverage = c.extrapolated != CompareColumns::kAbsent;
  for (const auto& s : t.schedules) {
    c.p10.push_back(column_of(cells, "p10_" + s));
    c.p90.push_back(column_of(cells, "p90_" + s));
    if (t.coverage &&
        (c.p10.back() == CompareColumns::kAbsent || c.p90.back() == CompareColumns::kAbsent)) {
      throw std::invalid_argument("coverage columns lack p10_" + s + " / p90_" + s);
    }
  }
  return c;
}

// A makespan cell: "deadlock" (NaN) or a positive number.
double makespan_cell(const std::string& c) {
  char* end = nullptr;
  const double v = std::strtod(c.c_str(), &end);
  if (c == "deadlock") return std::numeric_limits<double>::quiet_NaN();
  if (c.empty() || *end != '\0' || !(v > 0))
    throw std::invalid_argument("bad makespan '" + c + "'");
  return v;
}

// An interval cell: empty (NaN) or a non-negative number.
double interval_value(const std::string& c) {
  if (c.empty()) return std::numeric_limits<double>::quiet_NaN();
  char* end = nullptr;
  const double v = std::strtod(c.c_str(), &end);
  if (*end != '\0' || !(v >= 0)) throw std::invalid_argument("bad interval bound '" + c + "'");
  return v;
}

int64_t positive_integer(const std::string& c) {
  char* end = nullptr;
  const long long v = std::strtoll(c.c_str(), &end, 10);
  if (c.empty() || *end != '\0' || v < 1) throw std::invalid_argument("bad integer '" + c + "'");
  return static_cast<int64_t>(v);
}

std::string cell_or_empty(const std::vector<std::string>& cells, size_t c) {
  return c == CompareColumns::kAbsent ? "" : cells[c];
}

// One data row into t.
void read_row(const std::vector<std::string>& cells, const CompareColumns& c, CompareTable& t) {
  t.shapes.push_back(
      Problem{positive_integer(cells[0]), positive_integer(cells[1]), positive_integer(cells[2])});
  t.sms = positive_integer(cells[3]);
  for (size_t col : c.makespan) t.makespan.push_back(makespan_cell(cells[col]));
  t.winner.push_back(t.index_of(cells[4]));
  t.best_choice.push_back(cell_or_empty(cells, c.best_choice));
  t.best_tile.push_back(cell_or_empty(cells, c.best_tile));
  t.best_cluster.push_back(cell_or_empty(cells, c.best_cluster));
  if (!t.coverage) return;
  const std::string& flag = cells[c.extrapolated];
  if (flag != "true" && flag != "false") {
    throw std::invalid_argument("bad extrapolated '" + flag + "' (true or false)");
  }
  t.extrapolated.push_back(flag == "true" ? 1 : 0);
  t.extrapolation.push_back(cell_or_empty(cells, c.extrapolation));
  for (size_t j = 0; j < t.schedules.size(); ++j) {
    t.p10_us.push_back(interval_value(cells[c.p10[j]]));
    t.p90_us.push_back(interval_value(cells[c.p90[j]]));
  }
}

}  // namespace

CompareTable parse_compare_csv(const std::string& text, const std::string& name) {
  CompareTable t;
  std::stringstream in(text);
  std::string line;
  int lineno = 0;
  size_t cols = 0;
  CompareColumns columns;
  try {
    while (std::getline(in, line)) {
      ++lineno;
      if (line.empty() || line[0] == '#') continue;
      const auto cells = split(line);
      if (cols == 0) {
        columns = read_header(cells, t);
        cols = cells.size();
      } else if (cells.size() != cols) {
        throw std::invalid_argument("expected " + std::to_string(cols) + " columns");
      } else {
        read_row(cells, columns, t);
      }
    }
    if (cols == 0) throw std::invalid_argument("empty compare CSV");
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(name + ":" + std::to_string(lineno) + ": " + e.what());
  }
  return t;
}

}  // namespace lw::cli
