// GPU suite (needs an H100/H200; tagged gpu/manual), for both mainloops (mma, wgmma): every
// decomposition x reduction on ragged shapes vs FP64, determinism, atomic drift, traced walk ==
// host walk, co-residency refusal, a small case per decomposition for compute-sanitizer,
// unaligned operands, and C as a view that allows only narrow stores.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/bench/device_util.hpp"
#include "cuda/bench/host_ref.hpp"
#include "cuda/gemm.hpp"
#include "cuda/kernel/config.hpp"
#include "cuda/launch_plan.hpp"
#include "sim/decomp/planners/config_list.hpp"
#include "sim/decomp/planners/schedule.hpp"

using namespace lw;
using lw::cuda::check_cuda;

namespace {

constexpr double kBf16Tolerance = 1e-2;  // rel. Frobenius error of bf16 outputs vs FP64
constexpr double kF32Tolerance = 1e-4;   // fp32 outputs (fp32 accumulation-order differences)
constexpr int kDeterminismRuns = 10;
constexpr int kSmallSms = 8;          // plans built for few SMs: several segments per CTA
constexpr int32_t kSuiteSwizzle = 3;  // a band width that leaves ragged last bands

const TileShape kTile = kDefaultTile;

const std::vector<std::string>& schedules() {
  static const std::vector<std::string> s = {"dp",           "dp-persistent",   "splitk:2",
                                             "splitk:3",     "splitk:4",        "splitk-sep:3",
                                             "streamk",      "streamk:5",       "cutlass",
                                             "cutlass-dp",   "cutlass-streamk", "cutlass-splitk:3",
                                             "cutlass-seed", "two-tile"};
  return s;
}

int64_t sms_of_device() {
  int n = 0;
  check_cuda(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0), "SM count");
  return n;
}

// A kernel the suite runs: the mma kernel (128x128) or the wgmma kernel at one tile x cluster.
struct Variant {
  cuda::Mainloop mainloop;
  TileShape tile;
  ClusterShape cluster;
  std::string name() const {
    return std::string(cuda::mainloop_name(mainloop)) + " " + tile_text(tile) + " " +
           cluster_text(cluster);
  }
};

// LW_SUITE_TILES=64x128,128x128,16x64x128 and LW_SUITE_CLUSTERS=4x2,2x4 (optional): only those
// tiles' and clusters' variants, so that a device command on a short budget checks a kernel
// change's configs first.
bool env_list_keeps(const char* var, const std::string& name) {
  const char* only = std::getenv(var);
  if (only == nullptr || *only == '\0') return true;
  const std::string list = "," + std::string(only) + ",";
  return list.find("," + name + ",") != std::string::npos;
}
std::string pair_text(int64_t a, int64_t b) { return std::to_string(a) + "x" + std::to_string(b); }
// A tile is named MxN (its 64-deep form) or MxNxK (that depth).
bool suite_keeps(const TileShape& t) {
  return env_list_keeps("LW_SUITE_TILES", tile_text(t)) ||
         (t.k == kDefaultTile.k && env_list_keeps("LW_SUITE_TILES", pair_text(t.m, t.n)));
}
bool suite_keeps(const ClusterShape& c) {
  return env_list_keeps("LW_SUITE_CLUSTERS", pair_text(c.m, c.n));
}

// LW_SUITE_SHAPES=1x4096x4096,200x300x1000 (optional): the ragged-shape case runs these shapes in
// place of its own; LW_SUITE_REPEAT=N runs each of its configurations N times. Together with the
// tile and cluster filters they make a cheap repro of an intermittent failure.
constexpr int64_t kMaxSuiteRepeat = 100000;  // runs of one configuration, at most
std::vector<Problem> suite_shapes(const std::vector<Problem>& own) {
  const char* only = std::getenv("LW_SUITE_SHAPES");
  if (only == nullptr || *only == '\0') return own;
  std::vector<Problem> out;
  std::string item;
  for (std::istringstream list(only); std::getline(list, item, ',');) {
    const std::string bad = "LW_SUITE_SHAPES: bad shape '" + item + "' (expected MxNxK)";
    if (std::count(item.begin(), item.end(), 'x') != 2) throw std::invalid_argument(bad);
    try {
      const TileShape t = parse_tile_text(item);  // the same extents a tile's MxNxK takes
      out.push_back(Problem{t.m, t.n, t.k});
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument(bad);
    }
  }
  return out;
}
int suite_repeat() {
  const char* n = std::getenv("LW_SUITE_REPEAT");
  if (n == nullptr || *n == '\0') return 1;
  char* end = nullptr;
  const int64_t r = std::strtoll(n, &end, 10);
  if (*end != '\0' || r < 1 || r > kMaxSuiteRepeat)
    throw std::invalid_argument(std::string("LW_SUITE_REPEAT: bad count '") + n + "'");
  return static_cast<int>(r);
}

// The mma kernel and the wgmma kernel at every tile x cluster of sim/decomp/kernel_configs.hpp.
const std::vector<Variant>& variants() {
  static const std::vector<Variant> v = [] {
    std::vector<Variant> out;
    if (suite_keeps(kTile) && suite_keeps(ClusterShape{})) {
      out.push_back({cuda::Mainloop::Mma, kTile, ClusterShape{}});
    }
    for (const TileShape& t : kKernelTiles)
      for (const ClusterShape& c : kKernelClusters)
        if (kernel_has_config(t, c) && suite_keeps(t) && suite_keeps(c)) {
          out.push_back({cuda::Mainloop::Wgmma, t, c});
        }
    return out;
  }();
  return v;
}

constexpr int64_t kTmaElemAlign = 8;  // TMA rows must be 16-byte strided: K % 8 == 0

// Rows TMA cannot read (K % 8 != 0): every wgmma config stages the operands into padded rows.
bool expect_staged(cuda::Mainloop requested, const Plan& plan) {
  return requested == cuda::Mainloop::Wgmma && plan.problem.k % kTmaElemAlign != 0;
}

const char* red_name(Reduction r) { return r == Reduction::Atomic ? "atomic" : "deterministic"; }

// Inputs of one shape on the device plus host copies and the FP64 reference.
struct Case {
  Problem p;
  __nv_bfloat16 *a = nullptr, *b = nullptr;
  void* c = nullptr;  // room for fp32 output
  std::vector<double> ref;
  explicit Case(Problem pr, bool with_ref = true) : p(pr) {
    check_cuda(cudaMalloc(&a, p.m * p.k * 2), "a");
    check_cuda(cudaMalloc(&b, p.n * p.k * 2), "b");
    check_cuda(cudaMalloc(&c, p.m * p.n * 4), "c");
    bench::fill_random(a, p.m * p.k, 11 + p.m, nullptr);
    bench::fill_random(b, p.n * p.k, 23 + p.n, nullptr);
    if (with_ref)
      ref = bench::reference_gemm(host16(a, p.m * p.k), host16(b, p.n * p.k), p.m, p.n, p.k);
  }
  ~Case() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  static std::vector<uint16_t> host16(const void* d, int64_t n) {
    std::vector<uint16_t> h(static_cast<size_t>(n));
    check_cuda(cudaMemcpy(h.data(), d, h.size() * 2, cudaMemcpyDeviceToHost), "copy");
    return h;
  }
  // Poisons C, runs the plan, returns the relative error vs FP64 (NaN if anything unwritten).
  double run(const Plan& plan, cuda::OutType out, cuda::Mainloop ml) {
    const int bytes = out == cuda::OutType::BF16 ? 2 : 4;
    bench::poison(c, p.m * p.n, bytes, nullptr);
    cuda::GemmLauncher g(plan, sms_of_device(), out, false, ml);
    g.launch(cuda::Operands{a, b, c}, nullptr);
    CHECK(g.last_staged() == expect_staged(ml, plan));
    check_cuda(cudaDeviceSynchronize(), "run");
    return error_of(c, out);
  }
  // The relative error vs FP64 of an output at `out_c` (bf16 or fp32).
  double error_of(const void* out_c, cuda::OutType out) const {
    if (out == cuda::OutType::BF16) return bench::rel_frobenius_bf16(host16(out_c, p.m * p.n), ref);
    std::vector<float> h(static_cast<size_t>(p.m * p.n));
    check_cuda(cudaMemcpy(h.data(), out_c, h.size() * 4, cudaMemcpyDeviceToHost), "copy");
    return bench::rel_frobenius_f32(h, ref);
  }
};

// A plan for `sms` SMs; with a variant, built on what its kernel can hold resident there.
Planned make(const std::string& name, const Problem& p, int64_t sms, Reduction r) {
  return plan_schedule(name, p, kTile, GpuShape{sms, 1}, r);
}
Planned make(const std::string& name, const Problem& p, int64_t sms, Reduction r,
             const Variant& v) {
  const cuda::Residency res = cuda::kernel_residency(v.tile, v.cluster, v.mainloop, sms);
  return plan_schedule(name, p, v.tile, res.gpu(sms), r, v.cluster);
}

}  // namespace

// One configuration of the ragged-shape case on `cs`'s problem: bf16 C, the swizzled plan (8 SMs,
// deterministic) and fp32 C (8 SMs) against FP64. Returns the runs checked.
static int check_ragged_config(Case& cs, const std::string& name, Reduction red, int64_t sms,
                               const Variant& v) {
  const Problem& p = cs.p;
  const cuda::Mainloop ml = v.mainloop;
  const Plan plan = make(name, p, sms, red, v).plan;
  int checked = 0;
  CHECK(cs.run(plan, cuda::OutType::BF16, ml) < kBf16Tolerance);
  ++checked;
  if (sms == kSmallSms && red == Reduction::Deterministic) {
    // A tile swizzle moves tile ids to other tiles. Where every tile's k-range is cut alike (whole
    // tiles, fixed splits) no tile's sums change: the same bits; Stream-K cuts each tile id's
    // range differently, so there only the tolerance holds.
    const std::vector<uint16_t> plain = Case::host16(cs.c, p.m * p.n);
    Plan swizzled = plan;
    swizzled.swizzle = kSuiteSwizzle;
    CHECK(cs.run(swizzled, cuda::OutType::BF16, ml) < kBf16Tolerance);
    if (plan.split_mode == SplitMode::None || plan.split_mode == SplitMode::FixedSplit) {
      CHECK(Case::host16(cs.c, p.m * p.n) == plain);
    }
    ++checked;
  }
  if (sms == kSmallSms) {
    CHECK(cs.run(plan, cuda::OutType::F32, ml) < kF32Tolerance);
    ++checked;
  }
  return checked;
}

TEST_CASE("every decomposition x reduction x ragged shape matches FP64") {
  const std::vector<Problem> own = {
      {1, 1, 1},        {1, 300, 1000},  {127, 129, 63},   {200, 300, 1000}, {300, 170, 1001},
      {256, 256, 2048}, {33, 1000, 520}, {640, 384, 3000}, {1, 4096, 4096},  {129, 257, 40},
      {16, 8, 24},      {64, 56, 8},     {3, 200, 136},  // narrow outputs, K < 64
      {65, 72, 192}};  // K an odd number of 64-chunks: a deep tile's last chunk wholly past K
  const std::vector<Problem> shapes = suite_shapes(own);
  const int repeat = suite_repeat();
  int checked = 0;
  for (const Problem& p : shapes) {
    Case cs(p);
    for (const auto& name : schedules())
      for (Reduction red : {Reduction::Deterministic, Reduction::Atomic})
        for (int64_t sms : {sms_of_device(), int64_t{kSmallSms}})
          for (const Variant& v : variants())
            for (int rep = 0; rep < repeat; ++rep) {
              CAPTURE(v.name());
              CAPTURE(p.m);
              CAPTURE(p.n);
              CAPTURE(p.k);
              CAPTURE(name);
              CAPTURE(std::string(red_name(red)));
              CAPTURE(sms);
              CAPTURE(rep);
              checked += check_ragged_config(cs, name, red, sms, v);
            }
  }
  MESSAGE("configurations checked against FP64: " << checked);
}

TEST_CASE("deterministic reduction is bit-identical across runs; atomic stays within tolerance") {
  for (const Problem& p : {Problem{1000, 1100, 4100}, Problem{1000, 1100, 4096}}) {
    Case cs(p);
    for (const Variant& v : variants())
      for (Reduction red : {Reduction::Deterministic, Reduction::Atomic})
        for (const auto& name : schedules()) {
          const cuda::Mainloop ml = v.mainloop;
          const Plan plan = make(name, p, sms_of_device(), red, v).plan;
          cuda::GemmLauncher g(plan, sms_of_device(), cuda::OutType::BF16, false, ml);
          __nv_bfloat16* first = nullptr;
          check_cuda(cudaMalloc(&first, p.m * p.n * 2), "first");
          int64_t max_differ = 0;
          for (int run = 0; run < kDeterminismRuns; ++run) {
            bench::poison(cs.c, p.m * p.n, 2, nullptr);
            g.launch(cuda::Operands{cs.a, cs.b, run == 0 ? first : cs.c}, nullptr);
            if (run == 0) continue;
            const auto cmp = bench::compare(cs.c, first, p.m * p.n, 2, nullptr);
            CHECK(cmp.nonfinite == 0);
            max_differ = std::max(max_differ, cmp.bits_differ);
          }
          CAPTURE(name);
          CAPTURE(std::string(red_name(red)));
          CAPTURE(v.name());
          CHECK(g.last_staged() == expect_staged(ml, plan));
          const double e = bench::rel_frobenius_bf16(Case::host16(first, p.m * p.n), cs.ref);
          CHECK(e < kBf16Tolerance);
          if (red == Reduction::Deterministic) CHECK(max_differ == 0);
          MESSAGE(name << " " << std::string(red_name(red)) << " " << v.name() << " K=" << p.k
                       << ": rel err " << e << ", max outputs differing from run 0 over "
                       << kDeterminismRuns << " runs: " << max_differ << " of " << p.m * p.n);
          cudaFree(first);
        }
  }
}

TEST_CASE("the kernel walks exactly the host plan; traced output equals untraced bit for bit") {
  for (const Problem& p : {Problem{700, 900, 3000}, Problem{130, 260, 520}})
    for (int64_t sms : {sms_of_device(), int64_t{kSmallSms}}) {
      Case cs(p, false);
      __nv_bfloat16* plain = nullptr;
      check_cuda(cudaMalloc(&plain, p.m * p.n * 2), "plain");
      for (const auto& name : schedules())
        for (const Variant& v : variants()) {
          const cuda::Mainloop ml = v.mainloop;
          const Plan plan = make(name, p, sms, Reduction::Deterministic, v).plan;
          CAPTURE(name);
          CAPTURE(sms);
          CAPTURE(v.name());
          cuda::GemmLauncher untraced(plan, sms_of_device(), cuda::OutType::BF16, false, ml);
          cuda::GemmLauncher traced(plan, sms_of_device(), cuda::OutType::BF16, true, ml);
          untraced.launch(cuda::Operands{cs.a, cs.b, plain}, nullptr);
          bench::poison(cs.c, p.m * p.n, 2, nullptr);
          traced.launch(cuda::Operands{cs.a, cs.b, cs.c}, nullptr);
          const cuda::TraceResult t = traced.read_trace(nullptr);
          CHECK(traced.last_staged() == expect_staged(ml, plan));
          CHECK(bench::compare(cs.c, plain, p.m * p.n, 2, nullptr).bits_differ == 0);
          const auto walk = cuda::host_walk(plan);
          bool same = true;
          const int64_t size = cluster_size(plan);
          for (int64_t c = 0; c < plan.grid * size; ++c) {
            const auto& w = walk[static_cast<size_t>(c / size)];
            same =
                same && t.ctas[static_cast<size_t>(c)].segments == static_cast<int32_t>(w.size());
            for (size_t i = 0; same && i < w.size(); ++i) {
              const auto& r = t.segments[static_cast<size_t>(c * t.max_segments) + i];
              same = r.tile == w[i].tile && r.k_begin == w[i].k_begin && r.k_end == w[i].k_end &&
                     r.work_id == w[i].work_id && r.t_end >= r.t_start;
            }
          }
          for (int64_t r = 0; r < reduction_grid(plan) * size; ++r) {
            const auto s = reduction_segment(plan, r / size);
            same = same && t.reduction_segments[static_cast<size_t>(r)].tile == s.tile &&
                   t.reduction_ctas[static_cast<size_t>(r)].segments == 1;
          }
          CHECK(same);
        }
      cudaFree(plain);
    }
}

TEST_CASE("a persistent grid larger than the co-resident CTAs is refused") {
  const Problem p{512, 512, 4096};
  const int64_t sms = sms_of_device();
  const Plan plan =
      plan_stream_k(p, kTile, GpuShape{sms, 1}, 4 * sms, Reduction::Deterministic).plan;
  CHECK_THROWS_AS(cuda::GemmLauncher(plan, sms, cuda::OutType::BF16, false), std::invalid_argument);
  const Plan small = make("streamk", p, kSmallSms, Reduction::Deterministic).plan;
  CHECK_THROWS_AS(
      cuda::GemmLauncher(
          make("dp-persistent", Problem{4096, 4096, 64}, sms * 2, Reduction::Deterministic).plan,
          sms, cuda::OutType::BF16, false),
      std::invalid_argument);
  CHECK_NOTHROW(cuda::GemmLauncher(small, kSmallSms, cuda::OutType::BF16, false));
  // A persistent plan of 2x1 clusters: twice the clusters the device can hold is refused.
  const ClusterShape pair{2, 1};
  const Plan clustered =
      plan_schedule("streamk", p, kTile, GpuShape{sms, 1, sms}, Reduction::Deterministic, pair)
          .plan;
  CHECK(clustered.grid == sms);
  CHECK_THROWS_AS(cuda::GemmLauncher(clustered, sms, cuda::OutType::BF16, false),
                  std::invalid_argument);
}

// Under compute-sanitizer (10-100x slower) a representative subset: both mainloops, every tile
// height, the widest, a ragged and the narrow widths (wgmma n8 / n16 / n32 / n48 consumers), the
// swapped 16-, 32-, 48- and 80-row tiles, 64x80, every cluster shape (lines of four on narrow
// tiles, 4x2 / 2x4 on wide ones).
const std::vector<Variant>& sanitize_variants() {
  static const std::vector<Variant> v = {
      {cuda::Mainloop::Mma, kTile, ClusterShape{}},
      {cuda::Mainloop::Wgmma, kTile, ClusterShape{}},
      {cuda::Mainloop::Wgmma, TileShape{64, 256, 64}, ClusterShape{1, 2}},
      {cuda::Mainloop::Wgmma, TileShape{128, 120, 64}, ClusterShape{}},
      {cuda::Mainloop::Wgmma, TileShape{128, 256, 64}, ClusterShape{2, 1}},
      {cuda::Mainloop::Wgmma, TileShape{256, 128, 64}, ClusterShape{1, 2}},
      {cuda::Mainloop::Wgmma, TileShape{64, 32, 64}, ClusterShape{}},
      {cuda::Mainloop::Wgmma, TileShape{64, 64, 64}, ClusterShape{2, 1}},
      {cuda::Mainloop::Wgmma, TileShape{128, 64, 64}, ClusterShape{}},
      {cuda::Mainloop::Wgmma, TileShape{64, 16, 64}, ClusterShape{}},
      {cuda::Mainloop::Wgmma, TileShape{16, 64, 64}, ClusterShape{}},
      {cuda::Mainloop::Wgmma, TileShape{16, 128, 64}, ClusterShape{1, 2}},
      {cuda::Mainloop::Wgmma, TileShape{32, 64, 64}, ClusterShape{2, 1}},
      {cuda::Mainloop::Wgmma, TileShape{64, 96, 64}, ClusterShape{}},
      {cuda::Mainloop::Wgmma, kTile, ClusterShape{2, 2}},
      {cuda::Mainloop::Wgmma, TileShape{48, 64, 64}, ClusterShape{}},
      {cuda::Mainloop::Wgmma, TileShape{64, 80, 64}, ClusterShape{}},
      {cuda::Mainloop::Wgmma, TileShape{80, 64, 64}, ClusterShape{4, 2}},
      {cuda::Mainloop::Wgmma, TileShape{32, 128, 64}, ClusterShape{4, 1}},
      {cuda::Mainloop::Wgmma, TileShape{32, 128, 64}, ClusterShape{1, 4}},
      {cuda::Mainloop::Wgmma, kTile, ClusterShape{4, 2}},
      {cuda::Mainloop::Wgmma, TileShape{64, 128, 64}, ClusterShape{2, 4}},
  };
  return v;
}

TEST_CASE("sanitize: one small ragged problem per decomposition") {
  for (const Problem& p : {Problem{200, 136, 304}, Problem{70, 130, 203}}) {
    Case cs(p);
    for (const auto& name : schedules())
      for (Reduction red : {Reduction::Deterministic, Reduction::Atomic})
        for (const Variant& v : sanitize_variants()) {
          if (!suite_keeps(v.tile)) continue;
          CAPTURE(name);
          CAPTURE(std::string(red_name(red)));
          CAPTURE(v.name());
          CHECK(cs.run(make(name, p, kSmallSms, red, v).plan, cuda::OutType::BF16, v.mainloop) <
                kBf16Tolerance);
        }
  }
}

TEST_CASE("operands whose base is not 16-byte aligned are staged on every wgmma config") {
  const Problem p{200, 136, 304};  // K % 8 == 0: only the bases keep TMA from the rows
  Case cs(p);
  __nv_bfloat16 *a = nullptr, *b = nullptr;  // one element past a 16-byte boundary
  check_cuda(cudaMalloc(&a, (p.m * p.k + 1) * 2), "a+1");
  check_cuda(cudaMalloc(&b, (p.n * p.k + 1) * 2), "b+1");
  check_cuda(cudaMemcpy(a + 1, cs.a, p.m * p.k * 2, cudaMemcpyDeviceToDevice), "a+1");
  check_cuda(cudaMemcpy(b + 1, cs.b, p.n * p.k * 2, cudaMemcpyDeviceToDevice), "b+1");
  for (const Variant& v : sanitize_variants()) {
    if (!suite_keeps(v.tile)) continue;
    CAPTURE(v.name());
    const Plan plan = make("streamk", p, kSmallSms, Reduction::Deterministic, v).plan;
    bench::poison(cs.c, p.m * p.n, 2, nullptr);
    cuda::GemmLauncher g(plan, sms_of_device(), cuda::OutType::BF16, false, v.mainloop);
    g.launch(cuda::Operands{a + 1, b + 1, cs.c}, nullptr);
    check_cuda(cudaDeviceSynchronize(), "run");
    CHECK(g.last_staged() == (v.mainloop == cuda::Mainloop::Wgmma));
    CHECK(bench::rel_frobenius_bf16(Case::host16(cs.c, p.m * p.n), cs.ref) < kBf16Tolerance);
  }
  cudaFree(a);
  cudaFree(b);
}

// C as a view `offset` elements into a poisoned buffer: runs `plan` and returns the relative
// error against FP64; CHECKs that every element of the buffer outside C is still poison.
double run_c_view(const Case& cs, const Plan& plan, cuda::OutType out, cuda::Mainloop ml,
                  int64_t offset) {
  const int elem = out == cuda::OutType::BF16 ? 2 : 4;
  const int64_t count = cs.p.m * cs.p.n, total = count + 2 * offset;
  unsigned char* buf = nullptr;
  check_cuda(cudaMalloc(&buf, static_cast<size_t>(total * elem)), "c view");
  bench::poison(buf, total, elem, nullptr);
  void* c = buf + offset * elem;
  cuda::GemmLauncher g(plan, sms_of_device(), out, false, ml);
  g.launch(cuda::Operands{cs.a, cs.b, c}, nullptr);
  check_cuda(cudaDeviceSynchronize(), "run");
  const void* tail = buf + (offset + count) * elem;
  CHECK(bench::compare(buf, buf, offset, elem, nullptr).nonfinite == offset);    // before C
  CHECK(bench::compare(tail, tail, offset, elem, nullptr).nonfinite == offset);  // after C
  const double e = cs.error_of(c, out);
  cudaFree(buf);
  return e;
}

TEST_CASE("C whose rows or base allow only narrow stores is written exactly, nothing outside it") {
  // N % 8 == 0 rows limited by the base alone, and N % 8 == 4 rows (8-byte rows); C 1, 2 and 4
  // elements past a 256-byte boundary: bf16 stores of 2, 4 and 8 bytes, fp32 of 4, 8 and 16.
  for (const Problem& p : {Problem{200, 136, 304}, Problem{130, 172, 200}}) {
    Case cs(p);
    for (const Variant& v : sanitize_variants()) {
      if (!suite_keeps(v.tile)) continue;
      for (const char* name : {"dp", "splitk:2", "streamk"})
        for (int64_t offset : {1, 2, 4}) {
          const Plan plan = make(name, p, kSmallSms, Reduction::Deterministic, v).plan;
          CAPTURE(v.name());
          CAPTURE(name);
          CAPTURE(p.n);
          CAPTURE(offset);
          CHECK(run_c_view(cs, plan, cuda::OutType::BF16, v.mainloop, offset) < kBf16Tolerance);
          CHECK(run_c_view(cs, plan, cuda::OutType::F32, v.mainloop, offset) < kF32Tolerance);
        }
    }
  }
}

// splitk-dsm:S against splitk:S (deterministic: slots through L2): the same partials added in the
// same order, so the same bits; where the owner's shared memory cannot hold S - 1 partials beside
// the kernel's own, a refusal that says so; never with a multicast cluster.
TEST_CASE("sanitize: split-K through distributed shared memory equals split-K through L2 slots") {
  int max_smem = 0;
  check_cuda(cudaDeviceGetAttribute(&max_smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0),
             "max shared memory per block");
  const Reduction det = Reduction::Deterministic;
  for (const Problem& p : {Problem{200, 136, 304}, Problem{70, 130, 203}, Problem{33, 300, 1500}}) {
    Case cs(p);
    std::vector<TileShape> tried;  // each tile once, 1x1, whichever cluster sanitize_variants has
    for (const Variant& v : sanitize_variants()) {
      if (v.mainloop != cuda::Mainloop::Wgmma || !suite_keeps(v.tile)) continue;
      CAPTURE(v.name());
      if (v.cluster.m * v.cluster.n > 1) {
        CHECK_THROWS_AS(make("splitk-dsm:2", p, sms_of_device(), det, v), std::invalid_argument);
      }
      if (std::any_of(tried.begin(), tried.end(),
                      [&](const TileShape& t) { return same_tile(t, v.tile); })) {
        continue;
      }
      tried.push_back(v.tile);
      const Variant flat{v.mainloop, v.tile, ClusterShape{}};
      // The splitk-dsm form's own shared memory (its ring is shallower than the other forms').
      const int64_t dsm_smem = wgmma_smem_bytes(flat.tile, /*cluster_reduce=*/true);
      for (int64_t splits : {2, 3, 4, 8}) {
        const std::string arg = ":" + std::to_string(splits);
        CAPTURE(p.k);
        CAPTURE(splits);
        const Plan dsm = make("splitk-dsm" + arg, p, sms_of_device(), det, flat).plan;
        const Plan l2 = make("splitk" + arg, p, sms_of_device(), det, flat).plan;
        CHECK(dsm.grid == l2.grid);
        if (!kernel_has_cluster_reduce(flat.tile, flat.cluster)) {
          CHECK_THROWS_WITH_AS(cs.run(dsm, cuda::OutType::BF16, flat.mainloop),
                               doctest::Contains("no kernel"), std::invalid_argument);
          continue;
        }
        if (cuda::cluster_reduce_bytes(dsm) + dsm_smem > max_smem) {
          CHECK_THROWS_WITH_AS(cs.run(dsm, cuda::OutType::BF16, flat.mainloop),
                               doctest::Contains("shared memory"), std::invalid_argument);
          continue;
        }
        CHECK(cs.run(l2, cuda::OutType::BF16, flat.mainloop) < kBf16Tolerance);
        const std::vector<uint16_t> through_l2 = Case::host16(cs.c, p.m * p.n);
        CHECK(cs.run(dsm, cuda::OutType::BF16, flat.mainloop) < kBf16Tolerance);
        CHECK(Case::host16(cs.c, p.m * p.n) == through_l2);
        CHECK(cs.run(dsm, cuda::OutType::F32, flat.mainloop) < kF32Tolerance);
      }
    }
  }
}

// The splitk-dsm protocol at its smallest, for racecheck (under which the case above's cluster
// waits crawl: a few assertions in 170-420 s): one tile's two k-tiles split two ways, the owner's
// sum through distributed shared memory equal to splitk:2's through L2 slots, bit for bit.
TEST_CASE("sanitize: one tile split two ways through distributed shared memory") {
  const Reduction det = Reduction::Deterministic;
  for (const TileShape& t : {TileShape{16, 64, 64}, TileShape{64, 64, 64}}) {
    if (!suite_keeps(t)) continue;
    const Variant flat{cuda::Mainloop::Wgmma, t, ClusterShape{}};
    CAPTURE(flat.name());
    REQUIRE(kernel_has_cluster_reduce(flat.tile, flat.cluster));
    const Problem p{t.m, t.n, 2 * t.k};
    Case cs(p);
    const Plan l2 = make("splitk:2", p, sms_of_device(), det, flat).plan;
    const Plan dsm = make("splitk-dsm:2", p, sms_of_device(), det, flat).plan;
    CHECK(dsm.grid == 2);
    CHECK(cs.run(l2, cuda::OutType::BF16, flat.mainloop) < kBf16Tolerance);
    const std::vector<uint16_t> through_l2 = Case::host16(cs.c, p.m * p.n);
    CHECK(cs.run(dsm, cuda::OutType::BF16, flat.mainloop) < kBf16Tolerance);
    CHECK(Case::host16(cs.c, p.m * p.n) == through_l2);
  }
}
