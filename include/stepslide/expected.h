// The one error convention of stepslide, controller and tools alike: a
// function that can fail returns Expected<T> (a value, or the reason it has
// none) or Status (nothing, or the reason). Reasons are complete sentences for a person: what was read or
// written, and what was expected. Functions that find several problems at
// once (the scenario loader) return a result struct holding all of them.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace stepslide {

/// Success, or the reason for a failure.
class Status {
 public:
  Status() = default;
  static Status failure(std::string reason) { return Status(std::move(reason), false); }

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  /// Why it failed; "" when ok().
  const std::string& error() const { return error_; }

 private:
  Status(std::string reason, bool ok) : error_(std::move(reason)), ok_(ok) {}
  std::string error_;
  bool ok_ = true;
};

/// A value of type T, or the reason there is none.
template <class T>
class Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}  // NOLINT: implicit, so `return value;` works
  static Expected failure(std::string reason) {
    Expected e;
    e.error_ = std::move(reason);
    return e;
  }
  /// Carries a failed Status over (its reason).
  static Expected failure(const Status& status) { return failure(status.error()); }

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  /// Why there is no value; "" when ok().
  const std::string& error() const { return error_; }

  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  /// The value, or `fallback` when there is none.
  T value_or(T fallback) const { return value_ ? *value_ : std::move(fallback); }
  /// Moves the value out (ok() must hold).
  T take() { return std::move(*value_); }

 private:
  Expected() = default;
  std::optional<T> value_;
  std::string error_;
};

}  // namespace stepslide
