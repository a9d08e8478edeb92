// wgmma.mma_async m64nNk16 (bf16 x bf16 -> fp32, both operands K-major in 128B-swizzled shared
// memory) for every N a kernel tile uses; the N/2-register operand lists are generated with
// Boost.Preprocessor so each width is one line. Device-only (sm_90a).
#pragma once
#include <boost/preprocessor/control/if.hpp>
#include <boost/preprocessor/repetition/enum.hpp>
#include <boost/preprocessor/repetition/repeat.hpp>
#include <boost/preprocessor/stringize.hpp>
#include <cstdint>

namespace lw::cuda::ptx {

// D(64 x kN fp32, per warpgroup) += A(64 x 16, smem desc) * B(kN x 16, smem desc)^T.
template <int kN>
struct Wgmma;

#define LW_WGMMA_REG(z, i, unused) BOOST_PP_IF(i, ", %", "%") BOOST_PP_STRINGIZE(i)
#define LW_WGMMA_ACC(z, i, unused) "+f"(d[i])
// n: the instruction's N; regs = n / 2 accumulator registers; desc_a / desc_b are the operand
// numbers after them (regs, regs + 1), spelled out because the preprocessor cannot add here.
#define LW_WGMMA_DEFINE(n, regs, desc_a, desc_b)                                                \
  template <>                                                                                   \
  struct Wgmma<n> {                                                                             \
    static constexpr int kRegs = regs;                                                          \
    static_assert(kRegs * 2 == n && desc_a == regs && desc_b == regs + 1, "operand numbers");   \
    __device__ __forceinline__ static void mma(float (&d)[kRegs], uint64_t da, uint64_t db) {   \
      asm volatile(                                                                             \
          "{\n.reg .pred scale_d;\nsetp.ne.b32 scale_d, 1, 0;\n"                                \
          "wgmma.mma_async.sync.aligned.m64n" #n "k16.f32.bf16.bf16 {" BOOST_PP_REPEAT(         \
              regs, LW_WGMMA_REG, ~) "}, %" #desc_a ", %" #desc_b ", scale_d, 1, 1, 0, 0;\n}\n" \
          : BOOST_PP_ENUM(regs, LW_WGMMA_ACC, ~)                                                \
          : "l"(da), "l"(db));                                                                  \
    }                                                                                           \
  };

LW_WGMMA_DEFINE(8, 4, 4, 5)
LW_WGMMA_DEFINE(16, 8, 8, 9)
LW_WGMMA_DEFINE(24, 12, 12, 13)
LW_WGMMA_DEFINE(32, 16, 16, 17)
LW_WGMMA_DEFINE(40, 20, 20, 21)
LW_WGMMA_DEFINE(48, 24, 24, 25)
LW_WGMMA_DEFINE(64, 32, 32, 33)
LW_WGMMA_DEFINE(80, 40, 40, 41)
LW_WGMMA_DEFINE(96, 48, 48, 49)
LW_WGMMA_DEFINE(112, 56, 56, 57)
LW_WGMMA_DEFINE(120, 60, 60, 61)
LW_WGMMA_DEFINE(128, 64, 64, 65)
LW_WGMMA_DEFINE(136, 68, 68, 69)
LW_WGMMA_DEFINE(144, 72, 72, 73)
LW_WGMMA_DEFINE(160, 80, 80, 81)
LW_WGMMA_DEFINE(176, 88, 88, 89)
LW_WGMMA_DEFINE(192, 96, 96, 97)
LW_WGMMA_DEFINE(208, 104, 104, 105)
LW_WGMMA_DEFINE(224, 112, 112, 113)
LW_WGMMA_DEFINE(256, 128, 128, 129)

#undef LW_WGMMA_DEFINE
#undef LW_WGMMA_ACC
#undef LW_WGMMA_REG

}  // namespace lw::cuda::ptx
