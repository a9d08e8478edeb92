// `roofline`: physical-time (us) costs derived from a GPU preset alone; no measurements needed.
#pragma once
#include "models/registry.hpp"

namespace lw {

ModelInfo roofline_model_info();

}  // namespace lw
