// Sweep driver; see sweep.hpp. Shapes straddle tile edges (of the default 128x128x64) on purpose.
#include "tests/decomp/sweep.hpp"

#include <sstream>

#include "sim/decomp/planners/schedule.hpp"
#include "tests/decomp/plan_checker.hpp"

namespace lw_test {

SweepResult sweep_schedules(const std::vector<std::string>& names, int64_t keep_one_in,
                            const lw::TileShape& tile, int64_t ctas_per_sm) {
  const int64_t mn[] = {1, 100, 128, 129, 300, 1000, 1536, 3840, 4097};
  const int64_t ks[] = {1, 63, 64, 65, 500, 1024, 4096, 16384};
  const int64_t sms[] = {1, 8, 108, 132, 148};
  const lw::Reduction reds[] = {lw::Reduction::Deterministic, lw::Reduction::Atomic};
  SweepResult out;
  uint64_t counter = 0;
  for (const auto& name : names) {
    for (int64_t m : mn) {
      for (int64_t n : mn) {
        for (int64_t k : ks) {
          for (int64_t sm : sms) {
            for (auto red : reds) {
              // Cheap deterministic hash so each schedule sees a different sample.
              const uint64_t h = (++counter) * 0x9E3779B97F4A7C15ull;
              if ((h >> 33) % static_cast<uint64_t>(keep_one_in) != 0) continue;
              const lw::Problem prob{m, n, k};
              const lw::GpuShape gpu{sm, ctas_per_sm};
              std::ostringstream label;
              label << name << " tile " << tile.m << "x" << tile.n << "x" << tile.k << " " << m
                    << "x" << n << "x" << k << " sms=" << sm << "x" << ctas_per_sm
                    << (red == lw::Reduction::Atomic ? " atomic" : " deterministic") << ": ";
              // "streamk:G" with more units than resident CTAs is planned as asked (the simulator
              // diagnoses the resulting deadlock); check everything but residency for it.
              const bool over_resident =
                  name.rfind("streamk:", 0) == 0 && std::stoll(name.substr(8)) > sm * ctas_per_sm;
              std::string err;
              try {
                const auto planned = lw::plan_schedule(name, prob, tile, gpu, red);
                err =
                    check_plan(planned.plan, over_resident ? planned.plan.grid : sm * ctas_per_sm);
              } catch (const std::exception& e) {
                err = std::string("threw: ") + e.what();
              }
              ++out.plans;
              if (err.empty()) continue;
              ++out.failures;
              // Keep the first example of each kind of violation (text before the details).
              const std::string kind = err.substr(0, err.find_first_of("[0123456789"));
              if (out.failure.find(kind) == std::string::npos)
                out.failure += label.str() + err + "\n";
            }
          }
        }
      }
    }
  }
  return out;
}

}  // namespace lw_test
