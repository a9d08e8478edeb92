// The pieces of the `lastwave._lastwave` extension module (module.cpp registers them). The binding
// only converts arguments and results; every computation is sim/api's, as in the CLI.
#pragma once
#include <pybind11/pybind11.h>

namespace lw::py {

namespace pyb = pybind11;

void bind_types(pyb::module_& m);    // GpuSpec, Model, the catalogs (types.cpp)
void bind_predict(pyb::module_& m);  // predict rows, ranked plans, traces (predict.cpp)
void bind_plan(pyb::module_& m);     // a plan CTA by CTA (plan.cpp)

}  // namespace lw::py
