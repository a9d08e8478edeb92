// Stage checkpoints of a calibrate run (see checkpoint.hpp).
#include "calib/checkpoint.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "sim/util/atomic_file.hpp"

namespace lw {

namespace {

constexpr int kCheckpointVersion = 1;

nlohmann::json log_se_json(const std::map<std::string, double>& se) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, v] : se) j[name] = std::isfinite(v) ? nlohmann::json(v) : nullptr;
  return j;
}

std::map<std::string, double> log_se_from_json(const nlohmann::json& j) {
  std::map<std::string, double> se;
  for (const auto& [name, v] : j.items()) {
    se[name] = v.is_null() ? std::numeric_limits<double>::infinity() : v.get<double>();
  }
  return se;
}

}  // namespace

nlohmann::json fit_result_json(const FitResult& r) {
  const Identifiability& id = r.identifiability;
  return {{"params", r.params},
          {"start", r.start},
          {"evaluations", r.evaluations},
          {"status", r.status},
          {"train_rms_rel", r.train_rms_rel},
          {"log_se", log_se_json(id.log_se)},
          {"undetermined", id.undetermined},
          {"pinned", id.pinned},
          {"off", id.off},
          {"at_limit", id.at_limit}};
}

FitResult fit_result_from_json(const nlohmann::json& j) {
  FitResult r;
  r.params = j.at("params").get<ParamValues>();
  r.start = j.at("start").get<ParamValues>();
  r.evaluations = j.at("evaluations").get<int>();
  r.status = j.at("status").get<std::string>();
  r.train_rms_rel = j.at("train_rms_rel").get<double>();
  r.identifiability.log_se = log_se_from_json(j.at("log_se"));
  r.identifiability.undetermined = j.at("undetermined").get<std::vector<std::string>>();
  r.identifiability.pinned = j.at("pinned").get<std::vector<std::string>>();
  r.identifiability.off = j.at("off").get<std::vector<std::string>>();
  r.identifiability.at_limit = j.value("at_limit", std::vector<std::string>{});
  return r;
}

FitCheckpoint::FitCheckpoint(std::string path, std::string run_key) : path_(std::move(path)) {
  doc_ = {{"version", kCheckpointVersion}, {"run", run_key}, {"stages", nlohmann::json::object()}};
  std::ifstream in(path_);
  if (!in) {  // a first run: nothing saved yet; written now so that a bad path fails at once
    write_file_atomically(path_, doc_.dump(1) + "\n");
    return;
  }
  nlohmann::json saved;
  try {
    saved = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(path_ + ": not a calibrate checkpoint (" + e.what() + ")");
  }
  if (!saved.is_object() || saved.value("version", 0) != kCheckpointVersion ||
      !saved.contains("stages") || saved.value("run", std::string()) != run_key) {
    throw std::invalid_argument(path_ +
                                ": checkpoint of another run (inputs, options or code revision "
                                "differ); remove it to start afresh");
  }
  doc_ = std::move(saved);
}

const nlohmann::json* FitCheckpoint::find(const std::string& stage) const {
  if (!enabled()) return nullptr;
  const auto& stages = doc_.at("stages");
  const auto it = stages.find(stage);
  return it == stages.end() ? nullptr : &*it;
}

void FitCheckpoint::save(const std::string& stage, const FitResult& r) {
  if (!enabled()) return;
  doc_["stages"][stage] = fit_result_json(r);
  write_file_atomically(path_, doc_.dump(1) + "\n");
}

}  // namespace lw
