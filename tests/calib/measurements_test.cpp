// Bad measurement files give one-line errors naming file:line; the shape split is deterministic;
// a failed calibration leaves no output file, a successful one writes a loadable model; FILE.gz
// reads like the plain file.
#include "calib/measurements.hpp"

#include <doctest/doctest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "calib/calibrate.hpp"
#include "calib/cases.hpp"
#include "calib/file_hash.hpp"
#include "gpu/gpu_spec.hpp"
#include "models/registry.hpp"
#include "sim/util/atomic_file.hpp"
#include "tests/models/synthetic.hpp"

namespace lw {

namespace {

const char* kHeader =
    "m,n,k,sms,decomposition,reduction,splits,grid,median_ms,p10_ms,p90_ms,tflops,cublas_ms,"
    "rel_err,sm_clock_mhz\n";
const char* kGood = "1024,1024,1024,132,dp,deterministic,1,64,0.02,0.02,0.02,100,0.01,0,1980\n";
// Lengths of kHeader and kGood without their newline (where a column is appended).
const size_t kHeaderLength = std::string(kHeader).size() - 1;
const size_t kRowLength = std::string(kGood).size() - 1;

std::string error_of(const std::string& path) {
  try {
    read_all_measurements({path});
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

std::string write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  write_file_atomically(path, text);
  return path;
}

// Writes `text` gzip-compressed to dir/name (zlib's own writer, not the code under test).
std::string write_gzip(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  gzFile f = gzopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(gzwrite(f, text.data(), unsigned(text.size())) == int(text.size()));
  REQUIRE(gzclose(f) == Z_OK);
  return path;
}

}  // namespace

TEST_CASE("measurement files stored as FILE.gz read like the plain file") {
  const std::string dir = testing::temp_dir("gzip_measurements");
  const std::string text = std::string(kHeader) + kGood;
  const auto plain = read_measurements(write(dir, "plain.csv", text), nullptr);
  const auto packed = read_measurements(write_gzip(dir, "packed.csv.gz", text), nullptr);
  REQUIRE(plain.size() == 1);
  REQUIRE(packed.size() == 1);
  CHECK(packed[0].median_us == plain[0].median_us);
  CHECK(packed[0].problem.m == plain[0].problem.m);
  CHECK(sha256_file(dir + "/packed.csv.gz") == sha256_file(dir + "/plain.csv"));

  // A gzip file cut short, or a ".gz" that is not gzip, is an error naming the file.
  const std::string whole = read_file(dir + "/packed.csv.gz");
  std::string bytes;
  {
    std::ifstream in(dir + "/packed.csv.gz", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::string cut = dir + "/cut.csv.gz";
  write_file_atomically(cut, bytes.substr(0, bytes.size() / 2));
  CHECK_THROWS_WITH_AS(read_measurements(cut, nullptr),
                       doctest::Contains(("cannot inflate '" + cut + "'").c_str()),
                       std::runtime_error);
  const auto fake = write(dir, "fake.csv.gz", text);
  CHECK_THROWS_WITH_AS(read_measurements(fake, nullptr), doctest::Contains("is not gzip data"),
                       std::runtime_error);
  CHECK(whole == text);
}

TEST_CASE("bad measurement files name file and line") {
  const std::string dir = testing::temp_dir("bad_measurements");
  const auto missing = write(dir, "missing.csv", "m,n,k,sms,decomposition\n1,1,1,132,dp\n");
  CHECK(error_of(missing).find(missing + ":1: missing column 'reduction'") == 0);

  const auto nan = write(dir, "nan.csv",
                         std::string(kHeader) + kGood +
                             "2048,1024,1024,132,dp,deterministic,1,128,nan,0.02,0.02,100,0.01,0,"
                             "1980\n");
  CHECK(error_of(nan).find(nan + ":3: column median_ms") == 0);

  const auto dup = write(dir, "dup.csv", std::string(kHeader) + kGood + kGood);
  const std::string dup_err = error_of(dup);
  CHECK(dup_err.find(dup + ":3: duplicate row") == 0);
  CHECK(dup_err.find(dup + ":2") != std::string::npos);

  const auto unknown = write(dir, "unknown.csv",
                             std::string(kHeader) +
                                 "1024,1024,1024,132,warp-k,deterministic,1,64,0.02,0.02,0.02,100,"
                                 "0.01,0,1980\n");
  CHECK(error_of(unknown).find(unknown + ":2:") == 0);

  const auto ragged = write(dir, "ragged.csv", std::string(kHeader) + "1024,1024\n");
  CHECK(error_of(ragged).find(ragged + ":2: expected 15 values") == 0);

  // lastwave-bench's swizzle column: 1 reads as before, another swizzle is refused (the fit would
  // replan the row as a plain raster).
  const std::string swizzled_header = std::string(kHeader).insert(kHeaderLength, ",swizzle");
  const std::string good = std::string(kGood).insert(kRowLength, ",1");
  const auto plain = write(dir, "swizzle1.csv", swizzled_header + good);
  CHECK(error_of(plain).empty());
  const auto swizzled =
      write(dir, "swizzle4.csv", swizzled_header + std::string(kGood).insert(kRowLength, ",4"));
  CHECK(error_of(swizzled).find(swizzled + ":2: swizzle 4: calibration fits plain-raster") == 0);

  const auto empty = write(dir, "empty.csv", "");
  CHECK(error_of(empty).find(empty) == 0);

  // lastwave-bench's consumers column: the wgmma form that ran, or empty; nothing else.
  const std::string consumers_header = std::string(kHeader).insert(kHeaderLength, ",consumers");
  for (const char* form : {"cooperative", "pingpong", ""}) {
    CAPTURE(form);
    const auto ok =
        write(dir, "consumers.csv",
              consumers_header + std::string(kGood).insert(kRowLength, std::string(",") + form));
    CHECK(error_of(ok).empty());
  }
  const auto sideways = write(
      dir, "sideways.csv", consumers_header + std::string(kGood).insert(kRowLength, ",sideways"));
  CHECK(error_of(sideways).find(sideways + ":2: consumers 'sideways' is neither") == 0);
}

TEST_CASE("a row that ran the other consumer form than the kernels' rule is refused") {
  const std::string dir = testing::temp_dir("consumer_forms");
  const std::string header =
      "m,n,k,sms,decomposition,reduction,splits,grid,median_ms,p10_ms,p90_ms,tflops,cublas_ms,"
      "rel_err,sm_clock_mhz,tile,consumers\n";
  // 1024^3 dp on 128x128: 64 CTAs of one 16-k-tile tile each (cooperative); 4096^3
  // dp-persistent: 1,024 tiles over 132 CTAs (ping-pong).
  const std::string dp =
      "1024,1024,1024,132,dp,deterministic,1,64,0.02,0.02,0.02,100,0.01,0,1980,"
      "128x128x64,";
  const std::string persistent =
      "4096,4096,4096,132,dp-persistent,deterministic,1,132,0.2,0.2,0.2,600,0.2,0,1980,"
      "128x128x64,";
  const auto agree =
      write(dir, "agree.csv", header + dp + "cooperative\n" + persistent + "pingpong\n");
  const auto rows = read_all_measurements({agree});
  CHECK(build_cases(rows, TileShape{}, 1).size() == 2);
  const auto other = write(dir, "other.csv", header + dp + "pingpong\n");
  const auto wrong = read_all_measurements({other});
  std::string message;
  try {
    build_cases(wrong, TileShape{}, 1);
  } catch (const std::invalid_argument& e) {
    message = e.what();
  }
  CHECK(message.find(other + ":2: the row ran pingpong consumers, but the kernels run cooperative "
                             "ones for dp on tile 128x128x64") == 0);
}

TEST_CASE("held-out split is by shape and deterministic") {
  int held = 0;
  for (int64_t m = 1; m <= 400; ++m) {
    const Problem p{m * 16, 1024, 4096};
    CHECK(held_out(p, 0.25, 7) == held_out(p, 0.25, 7));
    held += held_out(p, 0.25, 7) ? 1 : 0;
  }
  CHECK(held > 60);
  CHECK(held < 140);
}

TEST_CASE("calibrate writes nothing on error and a loadable model on success") {
  const std::string dir = testing::temp_dir("calibrate_atomic");
  const std::string out = dir + "/model.json";
  const std::string report = dir + "/CALIBRATION.md";
  const auto bad = write(dir, "bad.csv", std::string(kHeader) + kGood + kGood);
  CalibrateOptions opt;
  opt.measurements = {bad};
  CHECK_THROWS_AS(write_calibration(run_calibration(opt), out, report), std::invalid_argument);
  CHECK(!std::filesystem::exists(out));
  CHECK(!std::filesystem::exists(report));

  testing::SyntheticSpec spec;
  spec.shapes = testing::shape_grid(512, 4096, 3);
  spec.schedules = {"dp", "splitk:2", "streamk"};
  spec.sms = {132, 64};
  opt.measurements = {write(dir, "good.csv", testing::synthetic_csv(spec))};
  opt.max_evaluations = 10;
  opt.holdout = 0.3;
  write_calibration(run_calibration(opt), out, report);
  CHECK(std::filesystem::exists(report));
  const auto model = make_model_from_file(out, {}, gpu_preset("h200"));
  CHECK(model->time_unit() == "us");
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    CHECK(entry.path().string().find(".tmp") == std::string::npos);  // no temporaries left
  }
}

}  // namespace lw
