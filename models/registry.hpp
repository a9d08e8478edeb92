// The explicit model registry: each cost model's name, one-line description, declared parameters
// (name, unit, default, range, doc) and factory. Unknown models or parameters, and values outside
// a parameter's range, are errors.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu_spec.hpp"
#include "models/cost_model.hpp"
#include "models/coverage.hpp"
#include "models/training_range.hpp"
#include "sim/util/value_range.hpp"

namespace lw {

// Declared parameter ranges. Times are per action (us or MAC-iteration units): an action longer
// than kMaxActionTime is no GEMM's, and keeps every makespan finite.
constexpr double kMaxActionTime = 1e9;
constexpr double kMaxCacheMiB = 1e6;                 // MiB
constexpr ValueRange kTimeRange{0, kMaxActionTime};  // a time: non-negative
// A MAC iteration's base time: positive, so every GEMM takes time (ratios of makespans exist).
constexpr ValueRange kPositiveTimeRange{0, kMaxActionTime, true};
constexpr ValueRange kShareRange{0, 1, true};  // (0, 1]: an achieved share of a peak
constexpr ValueRange kFractionRange{0, 1};     // [0, 1]
constexpr ValueRange kCacheSizeRange{0, kMaxCacheMiB, true};
// A cache size where 0 switches the term that reads it off.
constexpr ValueRange kCacheSizeOrOffRange{0, kMaxCacheMiB};
// A dimensionless scale where 0 switches the term that reads it off.
constexpr double kMaxScale = 1e6;
constexpr ValueRange kScaleOrOffRange{0, kMaxScale};
// A throughput (TFLOP/s, lines/us, GB/s) a time is divided by: bounded away from 0, so the times it
// yields stay finite, and bounded above, so they stay positive (every GEMM takes time).
constexpr double kMinParamRate = 1e-6;
constexpr double kMaxParamRate = 1e18;  // above calibrate's "pipe off" rate (1e15)
constexpr ValueRange kRateRange{kMinParamRate, kMaxParamRate};

// What a model file says its parameters were fitted on ("tile", "clusters", "tiles").
struct FitScope {
  TileShape tile = kDefaultTile;       // the tile the per-tile constants were fitted for
  std::vector<ClusterShape> clusters;  // the clusters measured (empty: not listed)
  std::vector<TileShape> tiles;        // the tiles measured (empty: not listed)
};

// A parameter's physical ceiling on a GPU, from its preset (a rate the hardware cannot exceed, a
// cache it does not have): calibrate fits within it, and a fitted value above it is a modelling
// error to fix rather than absorb. `upper` gives the ceiling in the parameter's unit (0: the
// preset does not say); `basis` says where it comes from.
struct PhysicalLimit {
  double (*upper)(const GpuSpec& gpu) = nullptr;
  const char* basis = "";
};

struct ParamSpec {
  std::string name;
  std::string unit;
  double default_value = 0;
  ValueRange range;
  std::string doc;
  PhysicalLimit limit{};  // none by default
};

using ParamValues = std::map<std::string, double>;

struct ModelInfo {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  // Builds the model from fully resolved parameters (every declared name present), fitted on
  // `scope` (a model file's; a model may refuse plans outside it in config_error).
  std::unique_ptr<CostModel> (*make)(const ParamValues& params, const GpuSpec& gpu,
                                     const FitScope& scope);
};

// The physical ceiling of `p` on `gpu` (PhysicalLimit), or +infinity where it has none.
double physical_upper(const ParamSpec& p, const GpuSpec& gpu);
// One line per parameter of `values` above its physical ceiling on `gpu` ("NAME VALUE UNIT is
// above LIMIT: BASIS"); empty when none is.
std::vector<std::string> beyond_physical_limits(const ModelInfo& info, const ParamValues& values,
                                                const GpuSpec& gpu);

const std::vector<ModelInfo>& model_registry();
const ModelInfo& find_model(const std::string& name);  // throws std::invalid_argument
// The parameter `name` of `info`; throws std::invalid_argument, one line starting with `where`.
const ParamSpec& find_param(const ModelInfo& info, const std::string& name,
                            const std::string& where = "--param");

// Throws std::invalid_argument, one line starting with `where`, on a name `info` does not declare
// or a value outside the parameter's declared range.
void check_params(const ModelInfo& info, const ParamValues& values, const std::string& where);

// Defaults overlaid with `overrides` (checked by check_params, blamed on `where`).
ParamValues resolve_params(const ModelInfo& info, const ParamValues& overrides,
                           const std::string& where = "--param");

// Parses "name=value,name=value" into overrides; throws on malformed text (ranges are checked
// when the overrides are resolved against a model).
ParamValues parse_param_overrides(const std::string& text);

std::unique_ptr<CostModel> make_model(const std::string& name, const ParamValues& overrides,
                                      const GpuSpec& gpu);

// What a model file holds: the model, its parameters, and the parameters its calibration did not
// determine ("undetermined": [names]; `predict` refuses cases those parameters move).
struct ModelFile {
  std::string model;
  ParamValues params;
  std::vector<std::string> undetermined;
  std::vector<std::string> off;  // "off": terms its calibration held switched off
  bool has_tile = false;         // "tile": the tile the parameters were fitted for
  TileShape tile = kDefaultTile;
  std::vector<ClusterShape> clusters;  // "clusters": those its measurements covered (empty: any)
  // "tiles": those its measurements covered; a calibrated file without the list predates it and
  // the narrow tiles (kTilesBeforeNarrow).
  std::vector<TileShape> tiles;
  // "residual_trees": the learned makespan correction (models/residual), or null.
  std::shared_ptr<const ResidualTrees> residual;
  std::string gpu;               // "gpu": the preset the measurements ran on ("": not recorded)
  TrainingRange training_range;  // "training_range" (empty: not recorded)
  // "coverage": training points, extrapolation threshold, validation bands (null: not recorded).
  std::shared_ptr<const Coverage> coverage;
};
ModelFile read_model_file(const std::string& path);  // throws std::invalid_argument

// A fitted model file (configs/models/*.json): {"model": NAME, "params": {...}, ...}. Parameters in
// the file override the model's defaults, `overrides` override the file.
std::unique_ptr<CostModel> make_model_from_file(const std::string& path,
                                                const ParamValues& overrides, const GpuSpec& gpu);
// The same from a file already read.
std::unique_ptr<CostModel> make_model_from_file(ModelFile f, const ParamValues& overrides,
                                                const GpuSpec& gpu);

}  // namespace lw
