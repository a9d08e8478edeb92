// CompareTable: building from rows, CSV writing and reading (see compare_table.hpp).
#include "cli/compare_table.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "sim/decomp/planners/config_list.hpp"

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
  return t;
}

std::string compare_csv(const CompareTable& t) {
  const bool best = t.index_of("best") >= 0;
  std::ostringstream o;
  o << "m,n,k,sms,winner";
  for (const auto& s : t.schedules) o << ',' << kMakespanPrefix << s;
  o << (best ? ",best_choice,best_tile,best_cluster" : "") << "\n";
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
    o << "\n";
  }
  return o.str();
}

CompareTable parse_compare_csv(const std::string& text, const std::string& name) {
  CompareTable t;
  std::stringstream in(text);
  std::string line;
  int lineno = 0;
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument(name + ":" + std::to_string(lineno) + ": " + why);
  };
  size_t cols = 0;
  size_t best_cols = 0;  // trailing best_* columns: 3, or 2 in files without best_cluster
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    const auto cells = split(line);
    if (cols == 0) {
      const size_t fixed = 5;
      if (cells.size() < fixed + 1 || cells[0] != "m" || cells[4] != "winner") {
        fail("not a compare CSV (header m,n,k,sms,winner,makespan_...)");
      }
      for (size_t c = fixed; c < cells.size(); ++c) {
        if (cells[c].rfind(kMakespanPrefix, 0) == 0) {
          t.schedules.push_back(cells[c].substr(std::string(kMakespanPrefix).size()));
        }
      }
      best_cols = cells.back() == "best_cluster" ? 3 : cells.back() == "best_tile" ? 2 : 0;
      cols = cells.size();
      continue;
    }
    if (cells.size() != cols) fail("expected " + std::to_string(cols) + " columns");
    auto integer = [&](size_t c) {
      char* end = nullptr;
      const long long v = std::strtoll(cells[c].c_str(), &end, 10);
      if (cells[c].empty() || *end != '\0' || v < 1) fail("bad integer '" + cells[c] + "'");
      return static_cast<int64_t>(v);
    };
    t.shapes.push_back(Problem{integer(0), integer(1), integer(2)});
    t.sms = integer(3);
    for (size_t j = 0; j < t.schedules.size(); ++j) {
      const std::string& c = cells[5 + j];
      char* end = nullptr;
      const double v = std::strtod(c.c_str(), &end);
      if (c == "deadlock") {
        t.makespan.push_back(std::numeric_limits<double>::quiet_NaN());
      } else if (c.empty() || *end != '\0' || !(v > 0)) {
        fail("bad makespan '" + c + "'");
      } else {
        t.makespan.push_back(v);
      }
    }
    t.winner.push_back(t.index_of(cells[4]));
    const size_t first_best = cols - best_cols;
    t.best_choice.push_back(best_cols ? cells[first_best] : "");
    t.best_tile.push_back(best_cols ? cells[first_best + 1] : "");
    t.best_cluster.push_back(best_cols == 3 ? cells[first_best + 2] : "");
  }
  if (cols == 0) fail("empty compare CSV");
  return t;
}

}  // namespace lw::cli
