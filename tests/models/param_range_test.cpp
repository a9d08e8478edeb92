// Declared ranges: model files, --param overrides and GPU presets outside a parameter's range
// fail with one line naming the file, the parameter and the range; every shipped default and
// preset lies inside its ranges.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/util/atomic_file.hpp"

namespace lw {

namespace {

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

std::string model_file(const std::string& name, const std::string& params) {
  const std::string path = std::string(std::getenv("TEST_TMPDIR")) + "/" + name + ".json";
  write_file_atomically(path, R"({"model": "calibrated", "params": {)" + params + "}}\n");
  return path;
}

std::string load_error(const std::string& path, const ParamValues& overrides = {}) {
  return error_of([&] { make_model_from_file(path, overrides, gpu_preset("h200")); });
}

// A preset JSON with one field replaced (or added) by `field: value`.
std::string preset_with(const std::string& field, const std::string& value) {
  std::string fields = R"("sms": 132, "bf16_dense_tflops": 989, "dram_tb_per_s": 4.8, )"
                       R"("l2_tb_per_s": 10, "l2_mib": 60, "sm_clock_mhz": 1980)";
  const std::string key = "\"" + field + "\": ";
  const auto at = fields.find(key);
  if (at == std::string::npos) {
    fields += ", " + key + value;
  } else {
    const auto end = fields.find(',', at);
    fields.replace(at, (end == std::string::npos ? fields.size() : end) - at, key + value);
  }
  return R"({"name": "test", )" + fields + "}";
}

std::string preset_error(const std::string& field, const std::string& value) {
  return error_of([&] { parse_gpu_preset(preset_with(field, value), "gpus/test.json"); });
}

}  // namespace

TEST_CASE(
    "a model file with a rate or time parameter out of range names the file, parameter, range") {
  const std::string neg = model_file("negative", R"("mma_tflops_per_sm": -5)");
  CHECK(load_error(neg) ==
        "model file '" + neg +
            "': parameter 'mma_tflops_per_sm' = -5 is outside its range [1e-06, 1e+18] TFLOP/s");
  const std::string huge = model_file("huge", R"("epilogue_us": 1e308)");
  CHECK(load_error(huge) ==
        "model file '" + huge +
            "': parameter 'epilogue_us' = 1e+308 is outside its range [0, 1e+09] us");
  // JSON has no NaN or infinity: an overflowing literal is refused as a file error.
  const std::string inf = model_file("inf", R"("mma_tflops_per_sm": 1e999)");
  CHECK(load_error(inf).rfind("model file '" + inf + "'", 0) == 0);
  // A valid file is accepted.
  CHECK(load_error(model_file("ok", R"("mma_tflops_per_sm": 0.25)")) == "(no error)");
}

TEST_CASE("--param NaN, infinities and negatives are refused, blamed on --param") {
  const std::string ok = model_file("ok2", R"("mma_tflops_per_sm": 0.25)");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(load_error(ok, {{"mma_tflops_per_sm", nan}}) ==
        "--param: parameter 'mma_tflops_per_sm' = nan is outside its range [1e-06, 1e+18] TFLOP/s");
  CHECK(load_error(ok, {{"flag_us", inf}}) ==
        "--param: parameter 'flag_us' = inf is outside its range [0, 1e+09] us");
  CHECK(load_error(ok, {{"flag_us", -inf}}) ==
        "--param: parameter 'flag_us' = -inf is outside its range [0, 1e+09] us");
  const GpuSpec h200 = gpu_preset("h200");
  CHECK(error_of([&] {
          make_model("roofline", {{"tensor_efficiency", 0.0}}, h200);
        }) == "--param: parameter 'tensor_efficiency' = 0 is outside its range (0, 1] fraction");
  CHECK(error_of([&] {
          make_model("unit", {{"mac", -1.0}}, h200);
        }) == "--param: parameter 'mac' = -1 is outside its range (0, 1e+09] iter");
  // The bounds themselves are inside.
  CHECK(error_of([&] {
          make_model("roofline", {{"tensor_efficiency", 1.0}}, h200);
        }) == "(no error)");
  CHECK(error_of([&] { make_model("unit", {{"epilogue", 0.0}}, h200); }) == "(no error)");
  // A MAC iteration must take time, or makespans (and their ratios) are 0 (NaN); a rate is
  // bounded away from 0 and infinity so the iteration time it yields is finite and positive.
  CHECK(error_of([&] {
          make_model("unit", {{"mac", 0.0}}, h200);
        }) == "--param: parameter 'mac' = 0 is outside its range (0, 1e+09] iter");
  CHECK(error_of([&] {
          make_model("calibrated", {{"mma_tflops_per_sm", 0.0}}, h200);
        }) ==
        "--param: parameter 'mma_tflops_per_sm' = 0 is outside its range [1e-06, 1e+18] TFLOP/s");
}

TEST_CASE("every declared default lies inside its declared range") {
  for (const auto& info : model_registry()) {
    for (const auto& p : info.params) {
      CAPTURE(p.name);
      CHECK(std::isfinite(p.default_value));
      CHECK(p.default_value <= p.range.max);
      CHECK(
          (p.range.min_exclusive ? p.default_value > p.range.min : p.default_value >= p.range.min));
    }
  }
}

TEST_CASE("GPU presets: counts >= 1 and whole, rates positive, all finite") {
  CHECK(preset_error("sms", "132") == "(no error)");
  CHECK(preset_error("sms", "0") ==
        "GPU preset gpus/test.json: parameter 'sms' = 0 is outside its range [1, 100000] SMs");
  CHECK(preset_error("sms", "1.5") ==
        "GPU preset gpus/test.json: parameter 'sms' must be a whole number");
  CHECK(preset_error("ctas_per_sm", "0") ==
        "GPU preset gpus/test.json: parameter 'ctas_per_sm' = 0 is outside its range [1, 32] "
        "CTAs");
  CHECK(preset_error("dram_tb_per_s", "-4.8") ==
        "GPU preset gpus/test.json: parameter 'dram_tb_per_s' = -4.8 is outside its range "
        "(0, 1e+06] TB/s");
  CHECK(preset_error("bf16_dense_tflops", "1e308") ==
        "GPU preset gpus/test.json: parameter 'bf16_dense_tflops' = 1e+308 is outside its range "
        "(0, 1e+06] TFLOP/s");
  CHECK(preset_error("l2_mib", "\"60\"") ==
        "GPU preset gpus/test.json: parameter 'l2_mib' is not a number");
  CHECK(error_of([] { parse_gpu_preset(R"({"name": "x", "sms": 4})", "x.json"); }) ==
        "GPU preset x.json: parameter 'bf16_dense_tflops' is missing");
  CHECK(error_of([] { parse_gpu_preset(R"({"name": "x", "label": 108})", "x.json"); }) ==
        "GPU preset x.json: \"label\" must be a string");
  CHECK(error_of([] { parse_gpu_preset(R"({"name": "x", "description": []})", "x.json"); }) ==
        "GPU preset x.json: \"description\" must be a string");
}

// "max_active_clusters" maps cluster sizes 2..8 (CTAs) to whole counts of at most the SMs' even
// share (132 SMs: 66 of 2, 33 of 4).
TEST_CASE("GPU presets: cluster limits by size, checked and kept by partitions") {
  const std::string key = "max_active_clusters";
  CHECK(preset_error(key, R"({"2": 66, "4": 30})") == "(no error)");
  CHECK(preset_error(key, R"({"4": 34})") ==
        "GPU preset gpus/test.json: parameter 'max_active_clusters[4]' = 34 is outside its range "
        "[1, 33] clusters");
  CHECK(preset_error(key, R"({"2": 0})") ==
        "GPU preset gpus/test.json: parameter 'max_active_clusters[2]' = 0 is outside its range "
        "[1, 66] clusters");
  CHECK(preset_error(key, R"({"1": 132})") ==
        "GPU preset gpus/test.json: max_active_clusters[1]: cluster size must be 2..8");
  CHECK(preset_error(key, R"({"16": 8})") ==
        "GPU preset gpus/test.json: max_active_clusters[16]: cluster size must be 2..8");
  CHECK(preset_error(key, R"({"two": 8})") ==
        "GPU preset gpus/test.json: max_active_clusters[two]: cluster size must be 2..8");
  CHECK(preset_error(key, R"({"4": 29.5})") ==
        "GPU preset gpus/test.json: max_active_clusters[4] must be a whole number");
  CHECK(preset_error(key, R"({"4": "30"})") ==
        "GPU preset gpus/test.json: max_active_clusters[4] must be a whole number");
  CHECK(preset_error(key, "[30]") ==
        "GPU preset gpus/test.json: \"max_active_clusters\" must map cluster sizes to counts");
  // configs/gpus/h200.json: 30 clusters of 4 (120 of 132 SMs), 66 of 2; the plan side sees them.
  const GpuSpec h200 = gpu_preset("h200");
  CHECK(resident_clusters(gpu_shape(h200), ClusterShape{2, 2}) == 30);
  CHECK(resident_clusters(gpu_shape(h200), ClusterShape{2, 1}) == 66);
  // A 64-SM partition keeps floor(30 x 64 / 132) = 14 and floor(66 x 64 / 132) = 32.
  const GpuSpec part = gpu_with_sms(64, &h200);
  CHECK(resident_clusters(gpu_shape(part), ClusterShape{2, 2}) == 14);
  CHECK(resident_clusters(gpu_shape(part), ClusterShape{1, 2}) == 32);
  // A limit never exceeds the even share; without one, the even share (8 SMs: 2 of 4).
  GpuShape loose = gpu_shape(h200);
  loose.sms = 8;
  CHECK(resident_clusters(loose, ClusterShape{2, 2}) == 2);
  CHECK(resident_clusters(GpuShape{8, 1}, ClusterShape{2, 2}) == 2);
  // Clusters of 8 (4x2, 2x4): 15 on an H200 and on an H100 (120 SMs), 7 on 64 of the SMs.
  const GpuSpec h100 = gpu_preset("h100-sxm");
  CHECK(resident_clusters(gpu_shape(h200), ClusterShape{4, 2}) == 15);
  CHECK(resident_clusters(gpu_shape(h100), ClusterShape{2, 4}) == 15);
  CHECK(resident_clusters(gpu_shape(h100), ClusterShape{2, 2}) == 30);
  CHECK(resident_clusters(gpu_shape(part), ClusterShape{2, 4}) == 7);
}

TEST_CASE("a model file's \"clusters\" must name clusters the kernels launch") {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/";
  const auto with_clusters = [&](const std::string& name, const std::string& clusters) {
    const std::string path = dir + name + ".json";
    write_file_atomically(
        path, R"({"model": "calibrated", "params": {}, "clusters": )" + clusters + "}\n");
    return path;
  };
  const std::string bad = with_clusters("cluster-3x3", R"(["1x1", "3x3"])");
  CHECK(load_error(bad).find("model file '" + bad + "': \"clusters\": ") == 0);
  CHECK(load_error(bad).find("3x3") != std::string::npos);
  const std::string num = with_clusters("cluster-number", "[2]");
  CHECK(load_error(num) == "model file '" + num + "': bad \"clusters\" entry");
  const std::string empty = with_clusters("cluster-empty", "[]");
  CHECK(load_error(empty) ==
        "model file '" + empty + "': \"clusters\" must be a non-empty array of \"MxN\"");
  CHECK(load_error(with_clusters("cluster-ok", R"(["1x1", "2x1"])")) == "(no error)");
}

TEST_CASE("a model file's \"tiles\" must name tiles the kernels have") {
  const std::string dir = std::string(std::getenv("TEST_TMPDIR")) + "/";
  const auto with_tiles = [&](const std::string& name, const std::string& tiles) {
    const std::string path = dir + name + ".json";
    write_file_atomically(path,
                          R"({"model": "calibrated", "params": {}, "tiles": )" + tiles + "}\n");
    return path;
  };
  const std::string bad = with_tiles("tile-100", R"(["128x128x64", "100x100x64"])");
  CHECK(load_error(bad).find("model file '" + bad + "': \"tiles\": tile 100x100x64 is not one") ==
        0);
  const std::string num = with_tiles("tile-number", "[128]");
  CHECK(load_error(num) == "model file '" + num + "': bad \"tiles\" entry");
  const std::string empty = with_tiles("tile-empty", "{}");
  CHECK(load_error(empty) ==
        "model file '" + empty + "': \"tiles\" must be a non-empty array of \"MxNxK\"");
  CHECK(load_error(with_tiles("tile-ok", R"(["64x32x64", "128x256"])")) == "(no error)");
}

TEST_CASE("every shipped GPU preset parses inside its ranges") {
  for (const auto& name : gpu_preset_names()) {
    CAPTURE(name);
    CHECK(error_of([&] { gpu_preset(name); }) == "(no error)");
  }
  CHECK(gpu_preset("h200").sms == 132);  // configs/gpus/h200.json
}

}  // namespace lw
