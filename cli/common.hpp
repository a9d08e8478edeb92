// Option groups and helpers shared by the `lastwave` subcommands: GPU selection, shapes (flags or
// CSV file), tile parsing, cost-model selection and output formats.
#pragma once
#include <boost/program_options.hpp>
#include <memory>
#include <string>
#include <vector>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/api/model_source.hpp"
#include "sim/api/predict_run.hpp"
#include "sim/decomp/planners/planners.hpp"
#include "sim/predict/predict.hpp"

namespace lw::cli {

namespace po = boost::program_options;

// Parses argv against `desc`; prints help and returns false when --help was given.
bool parse_or_help(int argc, char** argv, const po::options_description& desc,
                   po::variables_map& vm, const char* usage);

// --gpu NAME and/or --sms N (a partition of NAME when both are given; --sms alone with a fitted
// --model file that names a preset GPU: a partition of that GPU, else an N-SM chip).
void add_gpu_options(po::options_description& desc);
GpuSpec gpu_from(const po::variables_map& vm);

// --m/--n/--k or --shapes FILE.csv (header naming m, n, k; see sim/util/shapes_csv.hpp).
void add_shape_options(po::options_description& desc, bool allow_file);
std::vector<Problem> shapes_from(const po::variables_map& vm);

// "a,b,c" -> {"a", "b", "c"}; an empty item is refused in one line naming `what` ("GPU name").
std::vector<std::string> split_commas(const std::string& s, const std::string& what);

// "128x128x64" -> TileShape (sim/api/predict_run.hpp); throws on malformed text.
using lw::parse_tile;

// --tile MxNxK (absent: kDefaultTile) and --reduction deterministic|atomic.
void add_plan_options(po::options_description& desc);
TileShape tile_from(const po::variables_map& vm);
Reduction reduction_from(const po::variables_map& vm);

// make_predict_setup (sim/api/predict_run.hpp) from --tile, --cluster and --reduction.
PredictSetup predict_setup_from(const po::variables_map& vm, const GpuSpec& gpu,
                                const CostModel& model, const std::vector<std::string>& schedules);

// --model NAME|FILE.json and --param name=value,...
void add_model_options(po::options_description& desc);
std::unique_ptr<CostModel> model_from(const po::variables_map& vm, const GpuSpec& gpu);
// The fitted model file --model names (read once per process), or nullptr for a built-in model.
const ModelFile* fitted_model_file(const po::variables_map& vm);
// --model and --param as sim/api's ModelSource (the file read once per process).
ModelSource model_source_from(const po::variables_map& vm);

// --format table|csv|json (subset given by `allowed`).
std::string format_from(const po::variables_map& vm, const std::vector<std::string>& allowed);

// Prints to stdout or writes atomically to --out when given.
void emit(const po::variables_map& vm, const std::string& text);

}  // namespace lw::cli
