// read_gzip_file with zlib's gz* interface.
#include "sim/util/gzip_file.hpp"

#include <zlib.h>

#include <array>
#include <memory>
#include <stdexcept>

namespace lw {
namespace {

constexpr std::size_t kReadChunkBytes = 1 << 16;  // bytes inflated per gzread call

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};

}  // namespace

bool has_gzip_suffix(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

std::string read_gzip_file(const std::string& path) {
  const std::unique_ptr<gzFile_s, GzCloser> f(gzopen(path.c_str(), "rb"));
  if (!f) throw std::runtime_error("cannot read '" + path + "'");
  std::string out;
  std::array<char, kReadChunkBytes> buf;
  int n = 0;
  while ((n = gzread(f.get(), buf.data(), unsigned(buf.size()))) > 0) out.append(buf.data(), n);
  int code = Z_OK;
  const std::string why = gzerror(f.get(), &code);
  // gzread returns what it inflated when the file ends mid-stream and flags it as Z_BUF_ERROR.
  if (n < 0 || code != Z_OK) throw std::runtime_error("cannot inflate '" + path + "': " + why);
  // zlib passes data without a gzip header through unchanged; a ".gz" file must be gzip.
  if (gzdirect(f.get())) throw std::runtime_error("'" + path + "' is not gzip data");
  return out;
}

}  // namespace lw
