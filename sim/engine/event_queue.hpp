// The discrete-event core: a min-heap of plain events ordered by (time, priority, insertion), so
// equal-time events pop in a fixed order. No GEMM knowledge, no allocation once capacity is
// reserved.
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
    top_taken_ = false;
  }
  bool empty() {
    settle();
    return heap_.empty();
  }

  void push(double time, int32_t priority, int32_t kind, int64_t subject) {
    const Event e{time, priority, next_seq_++, kind, subject};
    if (top_taken_) {  // reuse the slot of the event just popped: one sift-down, no sift-up
      top_taken_ = false;
      heap_[0] = e;
      sift_down(0);
      return;
    }
    heap_.push_back(e);
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }

  // Removes and returns the earliest event. Its slot is reused by the next push, which is
  // almost always the handler of this event scheduling its successor.
  Event pop() {
    settle();
    top_taken_ = true;
    return heap_[0];
  }

 private:
  // Heap comparator (a functor, so it inlines): true when a pops after b.
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      if (a.time != b.time) return a.time > b.time;
      if (a.priority != b.priority) return a.priority > b.priority;
      return a.seq > b.seq;
    }
  };

  // Completes a pop whose slot was not reused.
  void settle() {
    if (!top_taken_) return;
    top_taken_ = false;
    heap_[0] = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(0);
  }

  void sift_down(size_t i) {
    const size_t n = heap_.size();
    const Event moving = heap_[i];
    for (;;) {
      size_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && Later{}(heap_[child], heap_[child + 1])) ++child;
      if (!Later{}(moving, heap_[child])) break;
      heap_[i] = heap_[child];
      i = child;
    }
    heap_[i] = moving;
  }

  std::vector<Event> heap_;
  uint64_t next_seq_ = 0;
  bool top_taken_ = false;
};

}  // namespace lw
