// `calibrated`: the roofline's structure with every cost a fitted parameter (us), read from a
// model file in configs/models/ written by `lastwave calibrate`.
#pragma once
#include "models/registry.hpp"

namespace lw {

ModelInfo calibrated_model_info();

}  // namespace lw
