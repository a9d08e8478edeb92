// `lastwave._lastwave`: the extension module behind the `lastwave` Python package (python/package).
#include "python/binding/bindings.hpp"

PYBIND11_MODULE(_lastwave, m) {
  m.doc() =
      "lastwave's simulator, cost models and chooser (the library the lastwave CLI runs); "
      "use the `lastwave` package, which wraps these functions with records and type checks.";
  lw::py::bind_types(m);
  lw::py::bind_predict(m);
  lw::py::bind_plan(m);
}
