// Seeded randomness for `stepslide fuzz` that gives the same numbers with
// every standard library: std::mt19937_64's output sequence is fixed by the
// C++ standard, but std::uniform_*_distribution are not, so the
// distributions here are written out by hand.
//
// A FuzzRandom can also take its draws from bytes (the libFuzzer target,
// fuzz/controller/): then each draw reads the next few bytes of the input,
// and an input read to its end draws zeros, so any bytes make a world and a
// mutated byte changes one decision of the generator.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>

namespace stepslide {

class FuzzRandom {
 public:
  explicit FuzzRandom(std::uint64_t seed) : engine_(seed) {}

  /// Draws read from `size` bytes at `data` (kept, not copied) instead of the engine.
  static FuzzRandom from_bytes(const std::uint8_t* data, std::size_t size) {
    FuzzRandom r(0);
    r.bytes_ = data;
    r.size_ = data == nullptr ? 0 : size;
    r.from_bytes_ = true;
    return r;
  }

  /// Bytes of the input read so far (from_bytes only).
  std::size_t bytes_read() const { return position_; }

  /// Uniform in [0, 1): the top 53 bits of one draw; from bytes, 16 bits of two.
  double unit() {
    if (from_bytes_) return static_cast<double>(take_bytes(2)) * 0x1.0p-16;
    return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  }

  /// Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }

  /// Uniform in [lo, hi), rounded to a multiple of `step`, which must be 1/n
  /// (0.001, 0.05, 0.5): the double nearest that decimal, so files read
  /// "0.409", not "0.40900000000000003".
  double rounded(double lo, double hi, double step = 0.001) {
    const double per_unit = std::round(1.0 / step);
    return std::round(uniform(lo, hi) * per_unit) / per_unit;
  }

  /// Uniform integer in [lo, hi], by rejection so that no value is favoured.
  std::int64_t integer(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    if (from_bytes_) {
      const std::uint64_t draw = take_bytes(bytes_for(span - 1));
      return lo + static_cast<std::int64_t>(span == 0 ? draw : draw % span);
    }
    if (span == 0) return static_cast<std::int64_t>(engine_());  // the whole 64-bit range
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    std::uint64_t draw = engine_();
    while (draw >= limit) draw = engine_();
    return lo + static_cast<std::int64_t>(draw % span);
  }

  /// True with probability `p`.
  bool chance(double p) { return unit() < p; }

 private:
  /// The next `count` bytes (at most 8) as a little-endian number; zeros past the end.
  std::uint64_t take_bytes(int count) {
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i) {
      const std::uint64_t byte = position_ < size_ ? bytes_[position_] : 0;
      if (position_ < size_) ++position_;
      value |= byte << (8 * i);
    }
    return value;
  }
  /// Bytes needed to hold `largest` (0 when it is 0: a single choice reads nothing).
  static int bytes_for(std::uint64_t largest) {
    int count = 0;
    while (largest != 0 && count < 8) {
      largest >>= 8;
      ++count;
    }
    return count;
  }

  std::mt19937_64 engine_;
  const std::uint8_t* bytes_ = nullptr;
  std::size_t size_ = 0;
  std::size_t position_ = 0;
  bool from_bytes_ = false;
};

}  // namespace stepslide
