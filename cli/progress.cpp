// Progress lines on stderr (see progress.hpp).
#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace lw::cli {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kPercent = 100.0;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::ostream& stream(const ProgressStyle& s) { return s.out ? *s.out : std::cerr; }

// Writes `line` as the current progress line (terminal: overwrite in place).
void show(const ProgressStyle& s, const std::string& line, bool final) {
  std::ostream& o = stream(s);
  if (s.terminal) {
    o << '\r' << line << "\033[K" << (final ? "\n" : "");
  } else {
    o << line << '\n';
  }
  o.flush();
}

}  // namespace

ProgressStyle ProgressStyle::for_stderr(bool quiet) {
  ProgressStyle s;
  s.quiet = quiet;
  s.terminal = isatty(STDERR_FILENO) != 0;
  return s;
}

Progress::Progress(std::string what, int64_t total, std::string unit, ProgressStyle style)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      total_(total),
      style_(style),
      start_(Clock::now()),
      last_(start_) {}

Progress::~Progress() { finish(); }

void Progress::advance(int64_t n) {
  const int64_t done = done_.fetch_add(n) + n;
  if (style_.quiet) return;
  const auto now = Clock::now();
  if (now - start_ < style_.delay) return;
  std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
  if (!lock.owns_lock() || finished_) return;
  const auto every = style_.terminal ? style_.terminal_every : style_.plain_every;
  if (printed_ && now - last_ < every) return;
  last_ = now;
  print(done, false);
}

void Progress::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  finished_ = true;
  if (printed_ && !style_.quiet) print(done_.load(), true);
}

void Progress::print(int64_t done, bool final) {
  const double elapsed = seconds(Clock::now() - start_);
  const double share = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 0;
  char buf[200];
  int len = std::snprintf(buf, sizeof buf, "%s: %lld/%lld %s (%.1f%%), %.0f s", what_.c_str(),
                          static_cast<long long>(done), static_cast<long long>(total_),
                          unit_.c_str(), kPercent * share, elapsed);
  if (!final && share > 0 && len > 0 && static_cast<size_t>(len) < sizeof buf) {
    std::snprintf(buf + len, sizeof buf - static_cast<size_t>(len), ", ~%.0f s left",
                  elapsed * (1.0 - share) / share);
  }
  show(style_, buf, final);
  printed_ = true;
}

Heartbeat::Heartbeat(std::string what, ProgressStyle style)
    : what_(std::move(what)), style_(style) {
  if (!style_.quiet) thread_ = std::thread([this] { run(); });
}

Heartbeat::~Heartbeat() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Heartbeat::set_status(std::string status) {
  std::lock_guard<std::mutex> lock(mu_);
  status_ = std::move(status);
}

void Heartbeat::run() {
  const auto start = Clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  if (cv_.wait_for(lock, style_.delay, [this] { return stop_; })) return;
  const auto every = style_.terminal ? style_.terminal_every : style_.plain_every;
  bool printed = false;
  while (true) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: running, %.0f s", what_.c_str(),
                  seconds(Clock::now() - start));
    show(style_, status_.empty() ? std::string(buf) : std::string(buf) + ", " + status_, false);
    printed = true;
    if (cv_.wait_for(lock, every, [this] { return stop_; })) break;
  }
  if (printed && style_.terminal) stream(style_) << '\n' << std::flush;
}

}  // namespace lw::cli
