// Stage checkpoints of a `lastwave calibrate` run: each finished fit (a term variant, the cross-SM
// fit) is saved to a JSON file as it ends, so that the same command run again (after a time limit
// killed it) loads those fits instead of repeating them and reports exactly what one run would.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "calib/fit.hpp"

namespace lw {

// A FitResult as JSON and back (doubles round-trip exactly; an unbounded standard error is null).
nlohmann::json fit_result_json(const FitResult& r);
FitResult fit_result_from_json(const nlohmann::json& j);

class FitCheckpoint {
 public:
  FitCheckpoint() = default;  // no file: find() finds nothing, save() saves nothing
  // Reads `path` if it exists. `run_key` names the run's inputs (files' hashes, options, code
  // revision); a file written by a run with another key is refused (std::invalid_argument).
  FitCheckpoint(std::string path, std::string run_key);
  // The saved fit of `stage` (a variant's name, "cross-SM: " + the kept variant's), or null.
  const nlohmann::json* find(const std::string& stage) const;
  // Saves `r` as `stage` and rewrites the file atomically.
  void save(const std::string& stage, const FitResult& r);
  bool enabled() const { return !path_.empty(); }

 private:
  std::string path_;
  nlohmann::json doc_;
};

// Runs `fit` unless the checkpoint holds `stage`; saves what it ran.
template <typename Fit>
FitResult checkpointed(FitCheckpoint& cp, const std::string& stage, Fit&& fit) {
  if (const nlohmann::json* saved = cp.find(stage)) return fit_result_from_json(*saved);
  FitResult r = fit();
  cp.save(stage, r);
  return r;
}

}  // namespace lw
