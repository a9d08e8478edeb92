// TimeBuckets<Item>: a min-queue of items keyed by a finite time, popped in (time, item.order)
// order. Items of one time share a bucket kept sorted by `order`; only the distinct times sit in a
// binary heap, so the many items of a few times (a wave of CTAs) cost a bucket append, not a sift.
// No allocation once its pools have grown. Item: a struct with an unsigned `order` field.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/engine/time_index.hpp"

namespace lw {

template <class Item>
class TimeBuckets {
 public:
  void reserve(size_t n) { times_.reserve(n); }
  void clear() {
    for (int32_t b : times_) {
      index_.erase(buckets_[b].time);
      recycle(b);
    }
    times_.clear();
    size_ = 0;
    cached_time_ = -1;
    cached_bucket_ = -1;
  }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  // Time of the first item (only when !empty()).
  double top_time() const { return buckets_[static_cast<size_t>(times_.front())].time; }

  // Adds Item{fields...} at `time` (finite; -0.0 joins 0.0's bucket, the index keys on bit
  // patterns). The item is built in place: a copy of a caller's item would be read back before
  // its stores retire (a store-forwarding stall on the hottest path).
  template <class... Fields>
  void push(double time, Fields... fields) {
    Bucket& bucket = buckets_[bucket_for(time + 0.0)];
    std::vector<Item>& items = bucket.items;
    items.emplace_back() = Item{fields...};
    // Keep the unpopped part sorted by order: only an item pushed out of order moves.
    for (size_t i = items.size() - 1; i > bucket.head && items[i].order < items[i - 1].order; --i) {
      std::swap(items[i], items[i - 1]);
    }
    ++size_;
  }

  // Removes the first item; its time is stored in *time.
  Item pop(double* time) {
    const int32_t b = times_.front();
    Bucket& bucket = buckets_[b];
    const Item item = bucket.items[bucket.head++];
    *time = bucket.time;
    if (bucket.head == bucket.items.size()) {  // bucket drained: drop its time
      std::pop_heap(times_.begin(), times_.end(), LaterTime{&buckets_});
      times_.pop_back();
      index_.erase(bucket.time);
      if (cached_bucket_ == b) cached_bucket_ = -1;
      recycle(b);
    }
    --size_;
    return item;
  }

 private:
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
      sift_up(b, time);
    }
    cached_time_ = time;
    cached_bucket_ = b;
    return b;
  }

  // std::push_heap of bucket b (at `time`) onto times_, written out: the library's was a call per
  // new time (a rated run's loop ends add one per speed class and wave).
  void sift_up(int32_t b, double time) {
    size_t hole = times_.size();
    times_.push_back(b);
    while (hole > 0) {
      const size_t parent = (hole - 1) / 2;
      if (!(buckets_[static_cast<size_t>(times_[parent])].time > time)) break;
      times_[hole] = times_[parent];
      hole = parent;
    }
    times_[hole] = b;
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
  size_t size_ = 0;
  double cached_time_ = -1;  // last bucket pushed to (most pushes hit it)
  int32_t cached_bucket_ = -1;
};

}  // namespace lw
