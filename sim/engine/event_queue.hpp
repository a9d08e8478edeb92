// The discrete-event core: a min-heap of plain events ordered by (time, priority, insertion), so
// equal-time events pop in a fixed order. No GEMM knowledge, no allocation once capacity is reserved.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace lw {

struct Event {
  double time = 0;
  int32_t priority = 0;  // lower pops first among equal times
  uint64_t seq = 0;      // insertion order: the final tie-break
  int32_t kind = 0;      // what happened (meaning owned by the user of the queue)
  int64_t subject = 0;   // who it happened to (e.g. a CTA index)
};

class EventQueue {
 public:
  void reserve(size_t n) { heap_.reserve(n); }
  void clear() {
    heap_.clear();
    next_seq_ = 0;
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }

  void push(double time, int32_t priority, int32_t kind, int64_t subject) {
    heap_.push_back(Event{time, priority, next_seq_++, kind, subject});
    std::push_heap(heap_.begin(), heap_.end(), later);
  }

  Event pop() {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Event e = heap_.back();
    heap_.pop_back();
    return e;
  }

 private:
  // Heap comparator: true when a pops after b.
  static bool later(const Event& a, const Event& b) {
    if (a.time != b.time) return a.time > b.time;
    if (a.priority != b.priority) return a.priority > b.priority;
    return a.seq > b.seq;
  }

  std::vector<Event> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace lw
