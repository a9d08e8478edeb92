// The discrete-event core: events ordered by (time, priority, insertion), so equal-time events pop
// in a fixed order. No GEMM knowledge, no allocation once its pools have grown.
// GPU schedules produce many events at few distinct times (a wave of CTAs finishing together), so
// events are kept in per-time FIFO buckets and only the distinct times sit in a binary heap.
// push() throws on a priority outside [0, kMaxPriority] and on a time that is not finite, negative,
// or before the last popped event (time starts at 0 and never runs backwards).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/engine/time_index.hpp"

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

  void reserve(size_t n) { times_.reserve(n); }
  void clear() {
    for (int32_t b : times_) {
      index_.erase(buckets_[b].time);
      recycle(b);
    }
    times_.clear();
    next_seq_ = 0;
    size_ = 0;
    cached_time_ = -1;
    cached_bucket_ = -1;
    last_popped_ = 0;
  }
  bool empty() const { return size_ == 0; }
  // Time of the next event (only when !empty()).
  double top_time() const { return buckets_[static_cast<size_t>(times_.front())].time; }

  void push(double time, int32_t priority, int32_t kind, int64_t subject) {
    check(time, priority);
    const Item item{(static_cast<uint64_t>(priority) << kSeqBits) | next_seq_++, kind, subject};
    Bucket& bucket = buckets_[bucket_for(time)];
    std::vector<Item>& items = bucket.items;
    items.push_back(item);
    // Keep the unpopped part sorted by (priority, seq): only a lower priority pushed late moves.
    for (size_t i = items.size() - 1; i > bucket.head && items[i].order < items[i - 1].order; --i) {
      std::swap(items[i], items[i - 1]);
    }
    ++size_;
  }

  Event pop() {
    const int32_t b = times_.front();
    Bucket& bucket = buckets_[b];
    const Item item = bucket.items[bucket.head++];
    const double time = bucket.time;
    if (bucket.head == bucket.items.size()) {  // bucket drained: drop its time
      std::pop_heap(times_.begin(), times_.end(), LaterTime{&buckets_});
      times_.pop_back();
      index_.erase(time);
      if (cached_bucket_ == b) cached_bucket_ = -1;
      recycle(b);
    }
    --size_;
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
  struct Bucket {
    double time = 0;
    std::vector<Item> items;
    size_t head = 0;  // next item to pop
  };
  // Heap comparator over bucket ids: true when a's time is later than b's.
  struct LaterTime {
    const std::vector<Bucket>* buckets;
    bool operator()(int32_t a, int32_t b) const { return (*buckets)[a].time > (*buckets)[b].time; }
  };

  // Out-of-range priorities would spill into the insertion counter (or wrap); a NaN time breaks
  // the heap order; a time before the last pop (or before 0) would run time backwards.
  void check(double time, int32_t priority) const {
    if (priority < 0 || priority > kMaxPriority) {
      throw std::out_of_range("event priority " + std::to_string(priority) + " outside [0, " +
                              std::to_string(kMaxPriority) + "]");
    }
    if (!std::isfinite(time) || time < last_popped_) {
      throw std::domain_error("event at t=" + std::to_string(time) +
                              " after an event at t=" + std::to_string(last_popped_) +
                              " (event times must be finite and never earlier than the last one)");
    }
  }

  int32_t bucket_for(double time) {
    if (cached_bucket_ >= 0 && cached_time_ == time) return cached_bucket_;
    int32_t b = index_.find(time);
    if (b < 0) {
      if (free_.empty()) {
        free_.push_back(static_cast<int32_t>(buckets_.size()));
        buckets_.emplace_back();
      }
      b = free_.back();
      free_.pop_back();
      buckets_[b].time = time;
      index_.insert(time, b);
      times_.push_back(b);
      std::push_heap(times_.begin(), times_.end(), LaterTime{&buckets_});
    }
    cached_time_ = time;
    cached_bucket_ = b;
    return b;
  }

  void recycle(int32_t b) {
    buckets_[b].items.clear();
    buckets_[b].head = 0;
    free_.push_back(b);
  }

  std::vector<Bucket> buckets_;  // pool; items keep their capacity across runs
  std::vector<int32_t> free_;    // unused bucket ids
  std::vector<int32_t> times_;   // heap of bucket ids by time (distinct times only)
  TimeIndex index_;              // time -> bucket id
  uint64_t next_seq_ = 0;
  size_t size_ = 0;
  double cached_time_ = -1;  // last bucket pushed to (most pushes hit it)
  int32_t cached_bucket_ = -1;
  double last_popped_ = 0;
};

}  // namespace lw
