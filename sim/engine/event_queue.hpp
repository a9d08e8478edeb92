// The discrete-event core: events ordered by (time, priority, insertion), so equal-time events pop
// in a fixed order. No GEMM knowledge, no allocation once its pools have grown.
// GPU schedules produce many events at few distinct times (a wave of CTAs finishing together), so
// events are kept in per-time FIFO buckets and only the distinct times sit in a binary heap
// (time_buckets.hpp).
// push() throws on a priority outside [0, kMaxPriority] and on a time that is not finite, negative,
// or before the last popped event (time starts at 0 and never runs backwards).
#pragma once
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "sim/engine/time_buckets.hpp"

namespace lw {

struct Event {
  double time = 0;
  int32_t priority = 0;  // lower pops first among equal times (0..EventQueue::kMaxPriority)
  uint64_t seq = 0;      // insertion order: the final tie-break
  int32_t kind = 0;      // what happened (meaning owned by the user of the queue)
  int64_t subject = 0;   // who it happened to (e.g. a CTA slot)
};

class EventQueue {
  static constexpr int kSeqBits = 56;  // priority lives above the insertion counter

 public:
  static constexpr int32_t kMaxPriority = (1 << (64 - kSeqBits)) - 1;  // 255

  void reserve(size_t n) { buckets_.reserve(n); }
  void clear() {
    buckets_.clear();
    next_seq_ = 0;
    last_popped_ = 0;
  }
  bool empty() const { return buckets_.empty(); }
  // Time of the next event (only when !empty()).
  double top_time() const { return buckets_.top_time(); }

  void push(double time, int32_t priority, int32_t kind, int64_t subject) {
    check(time, priority);
    buckets_.push(time, (static_cast<uint64_t>(priority) << kSeqBits) | next_seq_++, kind, subject);
  }

  Event pop() {
    double time = 0;
    const Item item = buckets_.pop(&time);
    last_popped_ = time;
    return Event{time, static_cast<int32_t>(item.order >> kSeqBits), item.order & kSeqMask,
                 item.kind, item.subject};
  }

 private:
  static constexpr uint64_t kSeqMask = (uint64_t{1} << kSeqBits) - 1;

  struct Item {
    uint64_t order;  // priority << kSeqBits | seq
    int32_t kind;
    int64_t subject;
  };

  // Out-of-range priorities would spill into the insertion counter (or wrap); a NaN time breaks
  // the heap order; a time before the last pop (or before 0) would run time backwards.
  // The test is inlined into push(); building the message is kept out of the hot path.
  void check(double time, int32_t priority) const {
    if (priority < 0 || priority > kMaxPriority || !std::isfinite(time) || time < last_popped_) {
      refuse(time, priority);
    }
  }
  [[noreturn]] __attribute__((cold, noinline)) void refuse(double time, int32_t priority) const {
    if (priority < 0 || priority > kMaxPriority) {
      throw std::out_of_range("event priority " + std::to_string(priority) + " outside [0, " +
                              std::to_string(kMaxPriority) + "]");
    }
    throw std::domain_error("event at t=" + std::to_string(time) +
                            " after an event at t=" + std::to_string(last_popped_) +
                            " (event times must be finite and never earlier than the last one)");
  }

  TimeBuckets<Item> buckets_;
  uint64_t next_seq_ = 0;
  double last_popped_ = 0;
};

}  // namespace lw
