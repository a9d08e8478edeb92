// compare's per-shape results as one table: makespan of every schedule per shape, the winner, and
// what `best` picked. Written as compare's CSV and read back by `lastwave plot`, so committed
// CSVs re-render without simulating.
#pragma once
#include <string>
#include <vector>

#include "sim/decomp/types.hpp"
#include "sim/predict/predict.hpp"

namespace lw::cli {

struct CompareTable {
  int64_t sms = 0;
  std::vector<std::string> schedules;
  std::vector<Problem> shapes;
  std::vector<double> makespan;  // shape-major, NaN = deadlock
  std::vector<int> winner;       // per shape: schedule index (first on ties), -1 = none
  // Per shape, when `best` is among the schedules: its decomposition, tile and cluster (""
  // otherwise).
  std::vector<std::string> best_choice, best_tile, best_cluster;
  // When the model carries coverage (a fitted file's "coverage" section): per shape, whether it
  // lies outside the training data and why (empty reason when not); per shape and schedule
  // (shape-major, as makespan), the p10-p90 interval in us, NaN where the row has no time.
  bool coverage = false;
  std::vector<char> extrapolated;
  std::vector<std::string> extrapolation;
  std::vector<double> p10_us, p90_us;

  double at(size_t shape, size_t schedule) const {
    return makespan[shape * schedules.size() + schedule];
  }
  int index_of(const std::string& schedule) const;  // -1 when absent
};

// From predict_all's shape-major rows.
CompareTable compare_table(const std::vector<Problem>& shapes,
                           const std::vector<std::string>& schedules,
                           const std::vector<PredictRow>& rows, int64_t sms);

// CSV: m,n,k,sms,winner,makespan_<schedule>...[,best_choice,best_tile,best_cluster]
// [,extrapolated,extrapolation,p10_<schedule>,p90_<schedule>...]; "deadlock" for NaN, empty
// interval cells for rows without a time. The coverage columns only with coverage (so a model
// without it writes what it always wrote).
std::string compare_csv(const CompareTable& t);
// Reads compare_csv's format back, columns found by their header names (files without
// best_cluster or without the coverage columns, written before they existed, too); throws
// std::invalid_argument naming file:line.
CompareTable parse_compare_csv(const std::string& text, const std::string& name);

}  // namespace lw::cli
