// Progress of a long-running command on stderr: one line updated in place (\r) when the stream is
// a terminal, a plain line every few seconds otherwise, nothing under --quiet. Thread-safe.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace lw::cli {

struct ProgressStyle {
  std::ostream* out = nullptr;  // nullptr: std::cerr
  bool quiet = false;
  bool terminal = false;                          // \r updates vs plain lines
  std::chrono::milliseconds delay{1000};          // nothing before this
  std::chrono::milliseconds terminal_every{200};  // \r refresh period
  std::chrono::milliseconds plain_every{5000};    // plain-line period
  static ProgressStyle for_stderr(bool quiet);    // terminal = isatty(stderr)
};

// Counts `total` items ("compare: 1200/32824 shapes (3.7%), 4 s, ~101 s left"). Workers call
// advance(); at most one of them prints at a time, and only when a period has passed.
class Progress {
 public:
  Progress(std::string what, int64_t total, std::string unit, ProgressStyle style);
  ~Progress();  // finish()
  void advance(int64_t n = 1);
  void finish();  // final line (terminal: ends the \r line) if anything was printed

 private:
  void print(int64_t done, bool final);
  std::string what_, unit_;
  int64_t total_;
  ProgressStyle style_;
  std::chrono::steady_clock::time_point start_, last_;
  std::atomic<int64_t> done_{0};
  std::mutex mu_;
  bool printed_ = false, finished_ = false;
};

// For one long call that reports no progress itself (calibrate's fit): prints the elapsed time
// and the latest status (set_status, from any thread) from a background thread with the same rules
// as Progress, until destroyed.
class Heartbeat {
 public:
  Heartbeat(std::string what, ProgressStyle style);
  ~Heartbeat();
  void set_status(std::string status);  // "fit 1/3 (r9), 57 simulations"

 private:
  void run();
  std::string what_;
  ProgressStyle style_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::string status_;  // guarded by mu_
  std::thread thread_;
};

}  // namespace lw::cli
