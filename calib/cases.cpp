// Planning measurements into fit cases and simulating them on all cores.
#include "calib/cases.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/gpu/simulator.hpp"
#include "sim/predict/best.hpp"

namespace lw {

std::vector<FitCase> build_cases(const std::vector<Measurement>& ms, const TileShape& tile,
                                 int64_t ctas_per_sm) {
  std::vector<FitCase> cases;
  cases.reserve(ms.size());
  for (const auto& m : ms) {
    const std::string where = m.file + ":" + std::to_string(m.line);
    FitCase c;
    c.m = &m;
    c.ctas_per_sm = ctas_per_sm;
    try {
      const TileShape t = m.tile.m > 0 ? m.tile : tile;
      c.plan = plan_schedule(m.schedule, m.problem, t, GpuShape{m.sms, ctas_per_sm},
                             parse_reduction(m.reduction), m.cluster)
                   .plan;
    } catch (const std::exception& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
    // The simulator runs the kernels' rule for the form (plan_runs_pingpong); a row that ran the
    // other one (another build's rule) would be fitted as a kernel it was not.
    if (!m.consumers.empty() && (m.consumers == "pingpong") != plan_runs_pingpong(c.plan)) {
      throw std::invalid_argument(where + ": the row ran " + m.consumers +
                                  " consumers, but the kernels run " +
                                  (plan_runs_pingpong(c.plan) ? "pingpong" : "cooperative") +
                                  " ones for " + m.schedule + " on tile " + tile_text(c.plan.tile) +
                                  " (plan_runs_pingpong): measured with another build's rule");
    }
    if (m.grid != c.plan.grid) {
      throw std::invalid_argument(where + ": measured grid " + std::to_string(m.grid) +
                                  " differs from the simulator's plan grid " +
                                  std::to_string(c.plan.grid) + " for " + m.schedule);
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<double> simulate_cases(const CostModel& model, const std::vector<FitCase>& cases) {
  std::vector<double> out(cases.size());
  const size_t workers =
      std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), cases.size()));
  std::vector<std::thread> pool;
  std::vector<std::string> errors(workers);  // a throw must not escape a thread (terminate)
  for (size_t w = 0; w < workers; ++w) {
    pool.emplace_back([&, w] {
      Simulator sim;
      try {
        for (size_t i = w; i < cases.size(); i += workers) {
          const SimOptions opt =
              sim_options_for(GpuShape{cases[i].m->sms, cases[i].ctas_per_sm}, cases[i].m->cluster);
          const SimResult& r = sim.run(cases[i].plan, model, opt);
          out[i] = r.deadlock ? std::numeric_limits<double>::infinity() : r.makespan;
        }
      } catch (const std::exception& e) {
        errors[w] = e.what();
      }
    });
  }
  for (auto& t : pool) t.join();
  for (const auto& e : errors) {
    if (!e.empty()) throw std::runtime_error(e);
  }
  return out;
}

}  // namespace lw
