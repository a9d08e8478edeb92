// GpuSpec, Model (a parsed and validated model source) and the name catalogs, for Python.
#include <pybind11/stl.h>

#include <stdexcept>

#include "python/binding/bindings.hpp"
#include "sim/api/model_source.hpp"
#include "sim/decomp/planners/schedule.hpp"

namespace lw::py {

namespace {

void bind_gpu_spec(pyb::module_& m) {
  pyb::class_<GpuSpec>(m, "GpuSpec", "A GPU's facts (configs/gpus presets; a partition of one).")
      .def_readonly("name", &GpuSpec::name)
      .def_readonly("label", &GpuSpec::label)
      .def_readonly("description", &GpuSpec::description)
      .def_readonly("sms", &GpuSpec::sms)
      .def_readonly("chip_sms", &GpuSpec::chip_sms)
      .def_readonly("ctas_per_sm", &GpuSpec::ctas_per_sm)
      .def_readonly("bf16_dense_tflops", &GpuSpec::bf16_dense_tflops)
      .def_readonly("dram_tb_per_s", &GpuSpec::dram_tb_per_s)
      .def_readonly("l2_tb_per_s", &GpuSpec::l2_tb_per_s)
      .def_readonly("l2_mib", &GpuSpec::l2_mib)
      .def_readonly("sm_clock_mhz", &GpuSpec::sm_clock_mhz)
      .def_static(
          "preset",
          [](const std::string& name, std::optional<int64_t> sms) {
            return resolve_gpu(name, sms, nullptr);
          },
          pyb::arg("name"), pyb::arg("sms") = pyb::none(),
          "The preset `name` (a100, h100-sxm, h100-pcie, h200, h20, b200, l40s), or a partition "
          "of it to `sms` SMs.")
      .def_static("names", &gpu_preset_names, "The preset names.")
      .def(
          "with_sms",
          [](const GpuSpec& g, int64_t sms) {
            if (sms > g.sms) {
              throw std::invalid_argument("--sms " + std::to_string(sms) + " exceeds the " +
                                          std::to_string(g.sms) + " SMs of " + g.name);
            }
            return gpu_with_sms(sms, &g);
          },
          pyb::arg("sms"), "A partition of this GPU to `sms` SMs (its rates scaled).")
      .def("__repr__", [](const GpuSpec& g) {
        return "GpuSpec(name='" + g.name + "', sms=" + std::to_string(g.sms) + ")";
      });
}

void bind_model(pyb::module_& m) {
  pyb::class_<ModelSource, std::shared_ptr<ModelSource>>(
      m, "Model", "A cost model: built-in or a fitted model file, parsed and validated once.")
      .def_readonly("name", &ModelSource::name, "As given: a built-in name or a *.json path.")
      .def_readonly("params", &ModelSource::overrides, "Parameter overrides (like --param).")
      .def_property_readonly(
          "kind", [](const ModelSource& s) { return s.file ? s.file->model : s.name; },
          "The registry model it is (unit, roofline, calibrated, ...).")
      .def_property_readonly(
          "gpu", [](const ModelSource& s) { return s.file ? s.file->gpu : std::string(); },
          "The GPU preset a fitted file was measured on ('' if none).")
      .def_property_readonly(
          "undetermined",
          [](const ModelSource& s) {
            return s.file ? s.file->undetermined : std::vector<std::string>{};
          },
          "Parameters its calibration did not determine (predict refuses rows they move).")
      .def("__repr__", [](const ModelSource& s) { return "Model('" + s.name + "')"; });
  m.def(
      "load_model",
      [](const std::string& name, const ParamValues& params) {
        try {
          return std::make_shared<ModelSource>(load_model_source(name, params));
        } catch (const std::runtime_error& e) {  // an unreadable file: bad input, as in the CLI
          throw std::invalid_argument(e.what());
        }
      },
      pyb::arg("name"), pyb::arg("params") = ParamValues{});
  m.def(
      "resolve_gpu",
      [](std::optional<std::string> name, std::optional<int64_t> sms,
         const std::shared_ptr<ModelSource>& model) {
        return resolve_gpu(name, sms, model ? model->file.get() : nullptr);
      },
      pyb::arg("name"), pyb::arg("sms"), pyb::arg("model"));
}

}  // namespace

void bind_types(pyb::module_& m) {
  bind_gpu_spec(m);
  bind_model(m);
  m.def("schedule_names", [] {
    std::vector<std::string> names;
    for (const auto& s : schedule_catalog()) names.emplace_back(s.name);
    return names;
  });
  m.def("model_names", [] {
    std::vector<std::string> names;
    for (const auto& info : model_registry()) names.push_back(info.name);
    return names;
  });
}

}  // namespace lw::py
