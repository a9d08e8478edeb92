// Open-addressing hash map from an event time (its bit pattern) to a bucket id, for EventQueue:
// linear probing, backward-shift deletion, no allocation once grown (unlike std::unordered_map,
// whose node per insert dominated the `best` search's profile).
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace lw {

class TimeIndex {
 public:
  // Bucket id stored for `time`, or -1.
  int32_t find(double time) const {
    if (slots_.empty()) return -1;
    const uint64_t key = bits(time);
    for (size_t i = home(key);; i = (i + 1) & mask_) {
      if (slots_[i].value < 0) return -1;
      if (slots_[i].key == key) return slots_[i].value;
    }
  }
  // Stores `time` -> `value` (time must not be present). Inline: growing is rare (out of line).
  [[gnu::always_inline]] void insert(double time, int32_t value) {
    if ((used_ + 1) * kMaxLoadInverse > slots_.size()) grow();
    place(bits(time), value);
    ++used_;
  }
  // Removes `time` (must be present).
  void erase(double time) {
    const uint64_t key = bits(time);
    size_t i = home(key);
    while (slots_[i].key != key || slots_[i].value < 0) i = (i + 1) & mask_;
    // Backward shift: move later entries of the probe run into the hole.
    for (size_t j = (i + 1) & mask_; slots_[j].value >= 0; j = (j + 1) & mask_) {
      const size_t h = home(slots_[j].key);
      const bool movable = (i <= j) ? (h <= i || h > j) : (h <= i && h > j);
      if (movable) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].value = -1;
    --used_;
  }

 private:
  static constexpr size_t kMaxLoadInverse = 2;  // keep at most half of the slots used
  static constexpr size_t kMinSlots = 64;
  static constexpr uint64_t kFibonacci = 0x9E3779B97F4A7C15ull;

  struct Slot {
    uint64_t key = 0;
    int32_t value = -1;  // -1: empty
  };

  static uint64_t bits(double t) {
    uint64_t b;
    std::memcpy(&b, &t, sizeof b);
    return b;
  }
  size_t home(uint64_t key) const { return static_cast<size_t>((key * kFibonacci) >> shift_); }
  void place(uint64_t key, int32_t value) {
    size_t i = home(key);
    while (slots_[i].value >= 0) i = (i + 1) & mask_;
    slots_[i] = Slot{key, value};
  }
  [[gnu::noinline]] void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    const size_t n = old.empty() ? kMinSlots : old.size() * 2;
    slots_.assign(n, Slot{});
    mask_ = n - 1;
    shift_ = 64;
    for (size_t s = n; s > 1; s >>= 1) --shift_;
    for (const Slot& s : old) {
      if (s.value >= 0) place(s.key, s.value);
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 64;
  size_t used_ = 0;
};

}  // namespace lw
