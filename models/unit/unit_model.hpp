// `unit`: the seed's abstract cost model: 1 per MAC iteration, epilogue 2, partial store/load 2.
#pragma once
#include "models/registry.hpp"

namespace lw {

ModelInfo unit_model_info();

}  // namespace lw
