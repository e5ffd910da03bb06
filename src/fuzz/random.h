// Seeded randomness for `stepslide fuzz` that gives the same numbers with
// every standard library: std::mt19937_64's output sequence is fixed by the
// C++ standard, but std::uniform_*_distribution are not, so the
// distributions here are written out by hand.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace stepslide {

class FuzzRandom {
 public:
  explicit FuzzRandom(std::uint64_t seed) : engine_(seed) {}

  /// Uniform in [0, 1): the top 53 bits of one draw.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

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
    if (span == 0) return static_cast<std::int64_t>(engine_());  // the whole 64-bit range
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    std::uint64_t draw = engine_();
    while (draw >= limit) draw = engine_();
    return lo + static_cast<std::int64_t>(draw % span);
  }

  /// True with probability `p`.
  bool chance(double p) { return unit() < p; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace stepslide
