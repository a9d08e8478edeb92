// TrainingRange (models/training_range): widened by rows, membership at its edges, its text, and
// the model file's JSON form (round trip; malformed entries refused in one line).
#include "models/training_range.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

namespace {

std::string error_of(const nlohmann::json& j) {
  try {
    lw::TrainingRange::from_json(j, "model file 'x.json'");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a training range spans the rows it includes, edges included") {
  lw::TrainingRange r;
  CHECK(r.empty());
  r.include({64, 4096, 512}, 132);
  r.include({1, 8192, 256}, 16);
  r.include({300, 1024, 1024}, 64);
  CHECK_FALSE(r.empty());
  CHECK(r.text() == "M 1-300, N 1024-8192, K 256-1024 on 16-132 SMs");
  CHECK(r.holds({1, 1024, 256}));
  CHECK(r.holds({300, 8192, 1024}));
  CHECK_FALSE(r.holds({301, 4096, 512}));
  CHECK_FALSE(r.holds({64, 1023, 512}));
  CHECK_FALSE(r.holds({64, 4096, 1025}));
  CHECK(r.holds_sms(16));
  CHECK(r.holds_sms(100));
  CHECK_FALSE(r.holds_sms(8));
  CHECK_FALSE(r.holds_sms(133));
  const lw::TrainingRange back = lw::TrainingRange::from_json(r.to_json(), "x");
  CHECK(back.text() == r.text());
}

TEST_CASE("a malformed training range is refused in one line naming the file") {
  const nlohmann::json good = {{"m", {1, 8}}, {"n", {8, 8}}, {"k", {8, 64}}, {"sms", {16, 132}}};
  CHECK(error_of(good).empty());
  nlohmann::json j = good;
  j.erase("k");
  CHECK(error_of(j) ==
        "model file 'x.json': \"training_range\" \"k\" must be [least, greatest] integers");
  j = good;
  j["sms"] = {132, 16};
  CHECK(error_of(j) ==
        "model file 'x.json': \"training_range\" \"sms\" must satisfy 1 <= least <= greatest");
  j = good;
  j["m"] = {0, 8};
  CHECK(error_of(j).find("1 <= least <= greatest") != std::string::npos);
  j = good;
  j["n"] = {8.5, 9};
  CHECK(error_of(j).find("\"n\" must be [least, greatest] integers") != std::string::npos);
  j = good;
  j["tiles"] = {1, 2};
  CHECK(error_of(j) == "model file 'x.json': \"training_range\" has an unknown entry \"tiles\"");
  CHECK(error_of(nlohmann::json::array()).find("must be an object") != std::string::npos);
}
