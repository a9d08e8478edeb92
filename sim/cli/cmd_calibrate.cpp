// `lastwave calibrate`: fits a cost model to measured kernel runs (issue #4; not built yet).
#include <stdexcept>

#include "sim/cli/commands.hpp"

namespace lw::cli {

int cmd_calibrate(int, char**) {
  throw std::runtime_error("calibrate is not available in this build yet");
}

}  // namespace lw::cli
