// Fixup: what a segment does with its fp32 partial tile after the MAC loop, per its Role from
// sim/decomp/walk.hpp: store to a workspace slot, add into one in place, or wait and reduce peers.
// L is the accumulator's thread layout (frag_layout.cuh): its threads and their barrier.
#pragma once
#include <cstdint>

#include "cuda/kernel/cluster_reduce.cuh"
#include "cuda/kernel/frag_layout.cuh"
#include "cuda/kernel/params.hpp"
#include "cuda/kernel/ptx.cuh"
#include "sim/decomp/kernel_configs.hpp"
#include "sim/decomp/walk.hpp"

namespace lw::cuda {

// Slot layout: fragment-major, thread-minor float4s, so each warp moves 512 contiguous bytes.
// A slot is only read by the kernel layout that wrote it.
template <class L>
__device__ __forceinline__ float4* frag_ptr(float* slot, int f) {
  return reinterpret_cast<float4*>(slot) + f * L::kThreads + L::tid();
}

template <class L>
__device__ __forceinline__ float* slot_ptr(const GemmParams& p, int64_t slot) {
  return p.workspace + slot * static_cast<int64_t>(L::kTileM * L::kTileN);
}

template <class L>
__device__ __forceinline__ void store_slot(float* slot, const typename L::Acc& acc) {
#pragma unroll
  for (int f = 0; f < L::kFrags; ++f) {
    const float* v = frag(acc, f);
    __stcg(frag_ptr<L>(slot, f), make_float4(v[0], v[1], v[2], v[3]));
  }
}

// acc += one slot's fragment f.
template <class A>
__device__ __forceinline__ void add_frag(A& acc, int f, const float4& v) {
  float* d = frag(acc, f);
  d[0] += v.x;
  d[1] += v.y;
  d[2] += v.z;
  d[3] += v.w;
}

// acc += slot (loads bypass L1: the slot was written by another CTA).
template <class L>
__device__ __forceinline__ void add_slot(float* slot, typename L::Acc& acc) {
#pragma unroll
  for (int f = 0; f < L::kFrags; ++f) add_frag(acc, f, __ldcg(frag_ptr<L>(slot, f)));
}

// Peers a Final segment waits for at once (one thread polls each flag, then one barrier) before
// it adds their slots: the flags' latency and the barrier are paid once per group, not per peer.
// (The simulator still loads each slot as soon as its flag rises.)
constexpr int kPeerGroup = static_cast<int>(kFinalPeerGroup);
static_assert(kPeerGroup <= kWarpSize, "a thread per peer flag in every layout");

// Slots a Final owner loads per L2 round trip (sim/decomp/kernel_configs.hpp).
template <class L>
inline constexpr int kReduceBatch =
    static_cast<int>(final_reduce_batch(int64_t{L::kFrags} * kFragFloats, kPeerGroup));

// acc += the `count` (<= kBatch) slots from workspace slot `first` (as cluster rank `rank`), added
// in k order: the same sums in the same order as slot by slot, so bit-identical to it.
template <class L, int kBatch>
__device__ __forceinline__ void add_slots(const Plan& plan, const GemmParams& p, int64_t first,
                                          int count, int64_t rank, typename L::Acc& acc) {
  float4 v[kBatch][L::kFrags];
#pragma unroll
  for (int b = 0; b < kBatch; ++b) {
    if (b < count) {
      float* slot = slot_ptr<L>(p, cta_slot(plan, first + b, rank));
#pragma unroll
      for (int f = 0; f < L::kFrags; ++f) v[b][f] = __ldcg(frag_ptr<L>(slot, f));
    }
  }
#pragma unroll
  for (int b = 0; b < kBatch; ++b) {
    if (b < count) {
#pragma unroll
      for (int f = 0; f < L::kFrags; ++f) add_frag(acc, f, v[b][f]);
    }
  }
}

// slot += acc in place: plain load/add/store (turnstile order) or atomic adds.
template <class L, bool kAtomic>
__device__ __forceinline__ void accumulate_slot(float* slot, const typename L::Acc& acc) {
#pragma unroll
  for (int f = 0; f < L::kFrags; ++f) {
    const float* v = frag(acc, f);
    float4* d = frag_ptr<L>(slot, f);
    if constexpr (kAtomic) {
      atomicAdd(d, make_float4(v[0], v[1], v[2], v[3]));
    } else {
      const float4 o = __ldcg(d);
      __stcg(d, make_float4(o.x + v[0], o.y + v[1], o.z + v[2], o.w + v[3]));
    }
  }
}

// The layout's first thread spins until *flag >= value (acquire), then its threads sync.
// Returns ns spent (first thread).
template <class L>
__device__ __forceinline__ uint64_t wait_flag(const int32_t* flag, int64_t value, bool traced) {
  uint64_t spent = 0;
  if (L::tid() == 0) {
    const uint64_t t0 = traced ? ptx::globaltimer() : 0;
    while (ptx::ld_acquire_gpu(flag) < value) {
    }
    if (traced) spent = ptx::globaltimer() - t0;
  }
  L::sync();
  return spent;
}

// The layout's first `count` threads each spin until the flag of slot `first + i` (as cluster rank
// `rank`) is >= value (acquire) and re-arm it (see rearm_flag), then its threads sync. Returns ns
// from the start to the sync (first thread).
template <class L>
__device__ __forceinline__ uint64_t wait_peers(const Plan& plan, const GemmParams& p, int64_t first,
                                               int64_t count, int64_t rank, int64_t value,
                                               bool traced) {
  const int t = L::tid();
  const uint64_t t0 = traced && t == 0 ? ptx::globaltimer() : 0;
  if (t < count) {
    int32_t* flag = p.flags + cta_slot(plan, first + t, rank);
    while (ptx::ld_acquire_gpu(flag) < value) {
    }
    *flag = 0;
  }
  L::sync();
  return traced && t == 0 ? ptx::globaltimer() - t0 : 0;
}

// The tile's owner has seen every peer's signal on *flag: nobody else waits on it in this launch,
// so its first thread re-arms it to zero for the next launch (flags are zeroed once, when the
// workspace is allocated, instead of by a memset launch before every GEMM).
template <class L>
__device__ __forceinline__ void rearm_flag(int32_t* flag) {
  if (L::tid() == 0) *flag = 0;
}

// After every thread's workspace writes: one thread releases `value` into *flag.
template <class L>
__device__ __forceinline__ void signal_flag(int32_t* flag, int64_t value) {
  L::sync();
  if (L::tid() == 0 && value != 0) ptx::red_release_gpu_add(flag, static_cast<int32_t>(value));
}

// Runs the fixup of segment `s` as cluster rank `rank` (its own slots and flags); returns the ns
// the first thread spent waiting on flags.
template <class L>
__device__ __forceinline__ uint64_t fixup(const Plan& plan, const GemmParams& p, const Segment& s,
                                          int64_t rank, typename L::Acc& acc) {
  const bool traced = p.trace.ctas != nullptr;
  const int64_t slot = cta_slot(plan, s.slot, rank);
  uint64_t waited = 0;
  switch (s.role) {
    case Role::Whole:
      break;
    case Role::StorePartial:
      if constexpr (L::kClusterReduce) {  // the splitk-dsm form runs cluster_reduce plans only
        store_to_owner<L>(plan, s, acc);
        break;
      }
      store_slot<L>(slot_ptr<L>(p, slot), acc);  // also initialises an in-place slot
      signal_flag<L>(p.flags + slot, s.signal);
      break;
    case Role::Accumulate:
      waited += wait_flag<L>(p.flags + slot, s.wait_value, traced);
      if (plan.storage == FixupStorage::InPlaceAtomic) {
        accumulate_slot<L, true>(slot_ptr<L>(p, slot), acc);
      } else {
        accumulate_slot<L, false>(slot_ptr<L>(p, slot), acc);
      }
      signal_flag<L>(p.flags + slot, s.signal);
      break;
    case Role::Final:
      if constexpr (L::kClusterReduce) {
        reduce_from_peers<L>(plan, acc);
      } else if (plan.storage == FixupStorage::Slots) {
        for (int64_t j0 = 0; j0 < s.load_slots; j0 += kPeerGroup) {
          const int64_t left = s.load_slots - j0, group = left < kPeerGroup ? left : kPeerGroup;
          waited += wait_peers<L>(plan, p, s.slot + j0, group, rank, s.wait_value, traced);
          constexpr int kBatch = kReduceBatch<L>;
          for (int64_t j = j0; j < j0 + group; j += kBatch) {  // k order: deterministic
            if constexpr (kBatch == 1) {  // wide tiles: each load beside its add, no batch held
              add_slot<L>(slot_ptr<L>(p, cta_slot(plan, s.slot + j, rank)), acc);
            } else {
              const int64_t rest = j0 + group - j;
              add_slots<L, kBatch>(plan, p, s.slot + j,
                                   static_cast<int>(rest < kBatch ? rest : kBatch), rank, acc);
            }
          }
        }
      } else {
        waited += wait_flag<L>(p.flags + slot, s.wait_value, traced);
        rearm_flag<L>(p.flags + slot);
        add_slot<L>(slot_ptr<L>(p, slot), acc);
      }
      break;
  }
  return waited;
}

}  // namespace lw::cuda
