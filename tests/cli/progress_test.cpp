// The shared progress helper: silent under --quiet, plain lines or \r updates otherwise, and safe
// to advance from several threads.
#include "cli/progress.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <thread>
#include <vector>

namespace {

using lw::cli::Progress;
using lw::cli::ProgressStyle;

// Prints at every advance (no delay, no period).
ProgressStyle eager(std::ostream& out, bool quiet, bool terminal) {
  ProgressStyle s;
  s.out = &out;
  s.quiet = quiet;
  s.terminal = terminal;
  s.delay = std::chrono::milliseconds(0);
  s.terminal_every = std::chrono::milliseconds(0);
  s.plain_every = std::chrono::milliseconds(0);
  return s;
}

}  // namespace

TEST_CASE("--quiet silences progress entirely") {
  std::ostringstream out;
  {
    Progress p("compare", 10, "shapes", eager(out, true, false));
    for (int i = 0; i < 10; ++i) p.advance();
  }
  { lw::cli::Heartbeat beat("calibrate", eager(out, true, false)); }
  CHECK(out.str().empty());
}

TEST_CASE("plain mode writes whole lines with counts") {
  std::ostringstream out;
  {
    Progress p("compare", 4, "shapes", eager(out, false, false));
    p.advance();
    p.advance(3);
  }
  const std::string s = out.str();
  CHECK(s.find("compare: 1/4 shapes (25.0%)") != std::string::npos);
  CHECK(s.find("compare: 4/4 shapes (100.0%)") != std::string::npos);
  CHECK(s.find('\r') == std::string::npos);
}

TEST_CASE("terminal mode rewrites one line and ends it once") {
  std::ostringstream out;
  {
    Progress p("predict", 2, "shapes", eager(out, false, true));
    p.advance();
    p.advance();
  }
  const std::string s = out.str();
  CHECK(s.find("\rpredict: 2/2 shapes") != std::string::npos);
  CHECK(std::count(s.begin(), s.end(), '\n') == 1);
  CHECK(s.back() == '\n');
}

TEST_CASE("nothing is printed before the delay") {
  std::ostringstream out;
  ProgressStyle s = eager(out, false, false);
  s.delay = std::chrono::hours(1);
  {
    Progress p("compare", 3, "shapes", s);
    p.advance(3);
  }
  CHECK(out.str().empty());
}

TEST_CASE("advance from many threads counts every item") {
  std::ostringstream out;
  ProgressStyle s = eager(out, false, false);
  s.plain_every = std::chrono::hours(1);  // first print only, then the final line
  constexpr int kThreads = 4, kEach = 1000;
  {
    Progress p("compare", kThreads * kEach, "shapes", s);
    std::vector<std::thread> pool;
    for (int t = 0; t < kThreads; ++t) {
      pool.emplace_back([&] {
        for (int i = 0; i < kEach; ++i) p.advance();
      });
    }
    for (auto& t : pool) t.join();
  }
  CHECK(out.str().find("compare: 4000/4000 shapes (100.0%)") != std::string::npos);
}
