// Identifiability: parameters the data fixes only as a sum, or not at all, are flagged.
#include "calib/identify.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace lw {

namespace {
bool flagged(const Identifiability& id, const std::string& name) {
  return std::find(id.undetermined.begin(), id.undetermined.end(), name) != id.undetermined.end();
}
}  // namespace

TEST_CASE(
    "a sum-only pair and a zero column are undetermined; a clean column and a held one are not") {
  // 4 residuals x 4 parameters: "a" and "b" have identical columns (only a + b matters), "z" has
  // no effect, "c" is independent of them.
  Eigen::MatrixXd j(4, 4);
  j << 1, 1, 0, 1.0,  //
      2, 2, 0, -1.0,  //
      1, 1, 0, 1.0,   //
      0, 0, 0, 2.0;
  const Identifiability id =
      identify(j, {"a", "b", "z", "c"}, 0.02, {false, false, false, false}, {"fixed_one"});
  CHECK(flagged(id, "a"));
  CHECK(flagged(id, "b"));
  CHECK(flagged(id, "z"));
  // A held (fixed) parameter is a term switched off, not a parameter the data missed.
  CHECK_FALSE(flagged(id, "fixed_one"));
  CHECK(id.off == std::vector<std::string>{"fixed_one"});
  CHECK_FALSE(flagged(id, "c"));
  // Column c = (1, -1, 1, 2) is orthogonal to (1, 2, 1, 0): se = 0.02 / |c| = 0.02 / sqrt(7).
  CHECK(id.log_se.at("c") == doctest::Approx(0.02 / std::sqrt(7.0)).epsilon(1e-6));
  CHECK(std::isinf(id.log_se.at("z")));
}

TEST_CASE("a parameter pushed to its bound is undetermined") {
  Eigen::MatrixXd j(2, 1);
  j << 1, 1;
  const Identifiability id = identify(j, {"p"}, 0.01, {true}, {});
  CHECK(flagged(id, "p"));
}

}  // namespace lw
