// `lastwave trace`: merges simulated and measured timelines (issue #4; not built yet).
#include <stdexcept>

#include "sim/cli/commands.hpp"

namespace lw::cli {

int cmd_trace(int, char**) { throw std::runtime_error("trace is not available in this build yet"); }

}  // namespace lw::cli
