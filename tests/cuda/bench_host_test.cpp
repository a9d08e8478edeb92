// Host-only tests of the benchmark's pure parts: statistics, shapes CSV parsing, the --configs
// reader, partition-size validation, FP64 reference, trace-JSON schema.
#include <doctest/doctest.h>

#include <stdexcept>

#include "cuda/bench/config_csv.hpp"
#include "cuda/bench/host_ref.hpp"
#include "cuda/bench/partition.hpp"
#include "cuda/bench/stats.hpp"
#include "cuda/bench/trace_json.hpp"
#include "sim/decomp/planners/schedule.hpp"
#include "sim/util/shapes_csv.hpp"

using namespace lw;
using namespace lw::bench;

TEST_CASE("median and percentiles") {
  const SampleStats s = summarize({5, 1, 4, 2, 3});
  CHECK(s.median == doctest::Approx(3));
  CHECK(s.p10 == doctest::Approx(1.4));
  CHECK(s.p90 == doctest::Approx(4.6));
  CHECK_THROWS_AS(percentile({}, 0.5), std::invalid_argument);
}

TEST_CASE("shapes CSV: any column order, comments, bad input named with its line") {
  const auto s = parse_shapes_csv("# corpus\nk,m,n\n64,1,2\n\n4096, 128 ,4096\n", "t.csv");
  REQUIRE(s.size() == 2);
  CHECK(s[0].m == 1);
  CHECK(s[0].n == 2);
  CHECK(s[0].k == 64);
  CHECK(s[1].m == 128);
  CHECK_THROWS_WITH_AS(parse_shapes_csv("m,n,k\n1,0,3\n", "t.csv"), "t.csv:2: bad dimension '0'",
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_shapes_csv("a,b\n1,2\n", "t.csv"), std::invalid_argument);
  CHECK_THROWS_AS(parse_shapes_csv("m,n,k\n", "t.csv"), std::invalid_argument);
}

TEST_CASE("configs CSV: the triples of any column order, each once, extra columns ignored") {
  // A lastwave-bench output's shape: extra columns around the three, a config on two shapes.
  const auto c = parse_configs_csv(
      "# pruned\nm,decomposition,cluster,tile,ok\n"
      "8,splitk-dsm:4,1x1,16x64x64,1\n"
      "9,splitk-dsm:4,1x1,16x64,1\n"
      "\n"
      "8,dp-persistent, 2x1 ,128x128x64,0\n",
      "c.csv");
  REQUIRE(c.size() == 2);
  CHECK(c[0].tile.m == 16);
  CHECK(c[0].tile.n == 64);
  CHECK(c[0].tile.k == 64);
  CHECK(c[0].cluster.m == 1);
  CHECK(c[0].schedule == "splitk-dsm:4");
  CHECK(c[1].tile.m == 128);
  CHECK(c[1].cluster.m == 2);
  CHECK(c[1].cluster.n == 1);
  CHECK(c[1].schedule == "dp-persistent");
  CHECK(config_tiles(c).size() == 2);
  CHECK(config_clusters(c).size() == 2);
  CHECK(config_schedules(c) == std::vector<std::string>{"splitk-dsm:4", "dp-persistent"});
}

TEST_CASE("configs CSV: bad input is one error naming the file and line") {
  const auto error_of = [](const std::string& text) {
    try {
      parse_configs_csv(text, "c.csv");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error_of("tile,cluster\n64x64,1x1\n") ==
        "c.csv:1: header must name columns tile, cluster and decomposition");
  CHECK(error_of("tile,cluster,decomposition\n") == "c.csv: no configurations");
  CHECK(error_of("tile,cluster,decomposition\n64x64,1x1\n") == "c.csv:2: missing value");
  CHECK(error_of("tile,cluster,decomposition\n64x64,1x1,\n") == "c.csv:2: missing value");
  CHECK(error_of("tile,cluster,decomposition\n64x64,1x1,best\n") ==
        "c.csv:2: decomposition 'best' is not a kernel config");
  CHECK(error_of("tile,cluster,decomposition\n64x64,1x1,auto\n").rfind("c.csv:2: ", 0) == 0);
  CHECK(error_of("tile,cluster,decomposition\n64x64,1x1,dp\n100x100,1x1,dp\n")
            .rfind("c.csv:3: ", 0) == 0);
  CHECK(error_of("tile,cluster,decomposition\n64x64,8x1,dp\n").rfind("c.csv:2: ", 0) == 0);
  CHECK(error_of("tile,cluster,decomposition\n64x64,1x1,splitk:0\n").rfind("c.csv:2: ", 0) == 0);
  CHECK_THROWS_AS(read_configs_csv("/nonexistent/configs.csv"), std::invalid_argument);
}

TEST_CASE("the committed config lists parse against today's kernel table") {
  // Written by tools/prune_configs.py from measured rows; a tile or cluster the kernels dropped
  // since would make heldout_check.sh's pruned commands fail at once.
  for (const char* sms : {"132", "96", "64"}) {
    const std::string path = std::string("configs/bench-configs/heldout-small-") + sms + ".csv";
    CAPTURE(path);
    const auto c = read_configs_csv(path);
    CHECK(c.size() > 100);
    CHECK(config_schedules(c).size() > 3);
  }
}

TEST_CASE("partition sizes: whole device or multiples of 8 below it") {
  CHECK_NOTHROW(check_partition_request(132, 132));
  CHECK_NOTHROW(check_partition_request(64, 132));
  CHECK_THROWS_AS(check_partition_request(66, 132), std::invalid_argument);
  CHECK_THROWS_AS(check_partition_request(136, 132), std::invalid_argument);
  CHECK_THROWS_AS(check_partition_request(0, 132), std::invalid_argument);
}

TEST_CASE("FP64 reference of a tiny product") {
  // bf16 bits: 1.0 = 0x3F80, 2.0 = 0x4000, -1.0 = 0xBF80
  const std::vector<uint16_t> a = {0x3F80, 0x4000};                  // 1x2
  const std::vector<uint16_t> b = {0x3F80, 0xBF80, 0x4000, 0x4000};  // 2x2 (N x K)
  const auto c = reference_gemm(a, b, 1, 2, 2);
  CHECK(c[0] == doctest::Approx(-1.0));
  CHECK(c[1] == doctest::Approx(6.0));
  CHECK(rel_frobenius_bf16({0xBF80, 0x40C0}, c) == doctest::Approx(0.0));
}

TEST_CASE("trace JSON: one X event per phase, schema header") {
  const TileShape tile{128, 128, 64};
  const Plan plan =
      plan_schedule("splitk:2", {128, 128, 256}, tile, GpuShape{}, Reduction::Deterministic).plan;
  std::vector<TracedCta> ctas(2);
  for (int c = 0; c < 2; ++c) {
    CtaWalk w;
    walk_begin(plan, c, w);
    Segment s;
    REQUIRE(walk_next(plan, w, s));
    cuda::SegmentTrace r;
    r.t_start = 1000 + c;
    r.t_mac_end = 3000;
    r.t_wait_end = 3500;
    r.t_fixup_end = 4000;
    r.t_end = 5000;
    ctas[c].cta = c;
    ctas[c].smid = 7 + c;
    ctas[c].segments.emplace_back(s, r);
  }
  const auto j = trace_to_json(plan, ctas, TraceMeta{128, 128, 256, 132, "splitk:2"});
  CHECK(j["lastwave"]["source"] == "hw");
  CHECK(j["lastwave"]["time_unit"] == "us");
  const auto& ev = j["traceEvents"];
  REQUIRE(ev.size() == 2 + 4);  // store_partial: mac+store; final: mac+wait+reduce+epilogue
  CHECK(ev[0]["name"] == "mac");
  CHECK(ev[0]["ph"] == "X");
  CHECK(ev[0]["ts"] == doctest::Approx(0.0));
  CHECK(ev[0]["dur"] == doctest::Approx(2.0));
  CHECK(ev[1]["name"] == "store");
  CHECK(ev[1]["tid"] == 7);
  CHECK(ev[1]["args"]["role"] == "store_partial");
  CHECK(ev[5]["name"] == "epilogue");
}
