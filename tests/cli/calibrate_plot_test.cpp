// calibrate --plot's points (cli/calibrate_plot.hpp): the held-out rows of a residuals CSV.
#include "cli/calibrate_plot.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

TEST_CASE("the plot takes the rows the fit did not see") {
  const std::string csv =
      "m,n,k,sms,decomposition,tile,cluster,split,measured_us,pred0_us\n"
      "1,8,8,132,dp,128x128x64,1x1,train,10,11\n"
      "2,8,8,132,streamk,128x128x64,1x1,validation,20,19\n"
      "3,8,8,132,splitk:2,128x128x64,1x1,test,30,33\n"
      "# pred columns: pred0 = simulator (calibrated)\n";
  const auto points = lw::cli::residual_points(csv);
  REQUIRE(points.size() == 2);
  CHECK(points[0].predicted == 19.0);
  CHECK(points[0].measured == 20.0);
  CHECK(points[0].label == "streamk");
  CHECK(points[1].label == "splitk:2");
}

TEST_CASE("without a split column every row is plotted; missing columns are refused") {
  CHECK(lw::cli::residual_points("decomposition,measured_us,pred0_us\ndp,1,2\ndp,3,4\n").size() ==
        2);
  CHECK_THROWS_AS(lw::cli::residual_points("decomposition,measured_us\ndp,1\n"),
                  std::invalid_argument);
}
