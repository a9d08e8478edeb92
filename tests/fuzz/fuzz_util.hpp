// Shared by the fuzz targets: the input as a string, a scratch file for parsers that only read
// paths, and the rule that a documented error (invalid_argument / runtime_error with a message)
// is fine while anything else (another exception, a crash, UB, a leak) is a bug.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

namespace lw::fuzz {

inline std::string as_text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// Prints why and aborts, so that libFuzzer (or the replay driver) records the input.
[[noreturn]] inline void bug(const std::string& why) {
  std::fprintf(stderr, "fuzz: %s\n", why.c_str());
  std::abort();
}

// Runs `parse`; a std::invalid_argument or std::runtime_error with a non-empty message is the
// parser's documented way to reject input. Other exceptions escape and terminate the run.
template <typename Fn>
void expect_documented(Fn&& parse) {
  try {
    parse();
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).empty()) bug("invalid_argument without a message");
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).empty()) bug("runtime_error without a message");
  }
}

// A file holding the latest input, for parsers that take a path; one per process, removed at
// exit. In /dev/shm when there is one (a disk-backed temp dir can cost milliseconds per run),
// else $TMPDIR or /tmp.
class ScratchFile {
 public:
  ScratchFile() {
    const char* tmp = std::getenv("TMPDIR");
    const std::string dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm"
                            : tmp && *tmp                   ? tmp
                                                            : "/tmp";
    path_ = dir + "/lw_fuzz_" + std::to_string(::getpid());
  }
  ~ScratchFile() { std::remove(path_.c_str()); }
  const std::string& write(const std::string& contents) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out << contents;
    if (!out) bug("cannot write scratch file " + path_);
    return path_;
  }

 private:
  std::string path_;
};

}  // namespace lw::fuzz
