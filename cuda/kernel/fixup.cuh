// Fixup: what a segment does with its fp32 partial tile after the MAC loop, per its Role from
// sim/decomp/walk.hpp: store to a workspace slot, add into one in place, or wait and reduce peers.
#pragma once
#include <cstdint>

#include "cuda/kernel/mainloop.cuh"
#include "sim/decomp/walk.hpp"

namespace lw::cuda {

// Slot layout: fragment-major, thread-minor float4s, so each warp moves 512 contiguous bytes.
__device__ __forceinline__ float4* frag_ptr(float* slot, int mi, int ni) {
  return reinterpret_cast<float4*>(slot) + (mi * kFragsN + ni) * Cfg::kThreads + threadIdx.x;
}

__device__ __forceinline__ float* slot_ptr(const GemmParams& p, int64_t slot) {
  return p.workspace + slot * Cfg::kSlotFloats;
}

__device__ __forceinline__ void store_slot(float* slot, const Accum& acc) {
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < kFragsN; ++ni) {
      const float* f = acc.v[mi][ni];
      __stcg(frag_ptr(slot, mi, ni), make_float4(f[0], f[1], f[2], f[3]));
    }
}

// acc += slot (loads bypass L1: the slot was written by another CTA).
__device__ __forceinline__ void add_slot(float* slot, Accum& acc) {
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < kFragsN; ++ni) {
      const float4 v = __ldcg(frag_ptr(slot, mi, ni));
      float* f = acc.v[mi][ni];
      f[0] += v.x;
      f[1] += v.y;
      f[2] += v.z;
      f[3] += v.w;
    }
}

// slot += acc in place: plain load/add/store (turnstile order) or atomic adds.
template <bool kAtomic>
__device__ __forceinline__ void accumulate_slot(float* slot, const Accum& acc) {
#pragma unroll
  for (int mi = 0; mi < kFragsM; ++mi)
#pragma unroll
    for (int ni = 0; ni < kFragsN; ++ni) {
      const float* f = acc.v[mi][ni];
      float4* d = frag_ptr(slot, mi, ni);
      if constexpr (kAtomic) {
        atomicAdd(d, make_float4(f[0], f[1], f[2], f[3]));
      } else {
        const float4 v = __ldcg(d);
        __stcg(d, make_float4(v.x + f[0], v.y + f[1], v.z + f[2], v.w + f[3]));
      }
    }
}

// Thread 0 spins until *flag >= value (acquire), then the CTA syncs. Returns ns spent (thread 0).
template <bool kTraced>
__device__ __forceinline__ uint64_t wait_flag(const int32_t* flag, int64_t value) {
  uint64_t spent = 0;
  if (threadIdx.x == 0) {
    const uint64_t t0 = kTraced ? ptx::globaltimer() : 0;
    while (ptx::ld_acquire_gpu(flag) < value) {
    }
    if (kTraced) spent = ptx::globaltimer() - t0;
  }
  __syncthreads();
  return spent;
}

// After every thread's workspace writes: one thread releases `value` into *flag.
__device__ __forceinline__ void signal_flag(int32_t* flag, int64_t value) {
  __syncthreads();
  if (threadIdx.x == 0 && value != 0) ptx::red_release_gpu_add(flag, static_cast<int32_t>(value));
}

// Runs the fixup of segment `s`; returns the ns thread 0 spent waiting on flags.
template <bool kTraced>
__device__ __forceinline__ uint64_t fixup(const Plan& plan, const GemmParams& p, const Segment& s,
                                          Accum& acc) {
  uint64_t waited = 0;
  switch (s.role) {
    case Role::Whole:
      break;
    case Role::StorePartial:
      store_slot(slot_ptr(p, s.slot), acc);  // also initialises an in-place slot
      signal_flag(p.flags + s.slot, s.signal);
      break;
    case Role::Accumulate:
      waited += wait_flag<kTraced>(p.flags + s.slot, s.wait_value);
      if (plan.storage == FixupStorage::InPlaceAtomic) {
        accumulate_slot<true>(slot_ptr(p, s.slot), acc);
      } else {
        accumulate_slot<false>(slot_ptr(p, s.slot), acc);
      }
      signal_flag(p.flags + s.slot, s.signal);
      break;
    case Role::Final:
      if (plan.storage == FixupStorage::Slots) {
        for (int64_t j = 0; j < s.load_slots; ++j) {  // k order: deterministic
          waited += wait_flag<kTraced>(p.flags + s.slot + j, s.wait_value);
          add_slot(slot_ptr(p, s.slot + j), acc);
        }
      } else {
        waited += wait_flag<kTraced>(p.flags + s.slot, s.wait_value);
        add_slot(slot_ptr(p, s.slot), acc);
      }
      break;
  }
  return waited;
}

}  // namespace lw::cuda
