// `lastwave models`: the registered cost models and their declared parameters (name, unit,
// default, range, doc).
#include <cstdio>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/common.hpp"

namespace lw::cli {

int cmd_models(int argc, char** argv) {
  po::options_description desc("lastwave models");
  desc.add_options()("help,h", "show this help");
  po::variables_map vm;
  if (!parse_or_help(argc, argv, desc, vm, "lastwave models")) return 0;
  for (const auto& info : model_registry()) {
    std::cout << info.name << ": " << info.description << "\n";
    for (const auto& p : info.params) {
      char cols[128];
      std::snprintf(cols, sizeof cols, "  %-28s %-9s default %-8g range %-12s ", p.name.c_str(),
                    p.unit.c_str(), p.default_value, p.range.text().c_str());
      std::cout << cols << p.doc << "\n";
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace lw::cli
