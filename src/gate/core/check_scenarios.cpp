#include "gate/core/check_scenarios.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

namespace stepslide {

namespace {

std::vector<CheckOutcome> check_in_turn(const std::vector<std::string>& scenarios, const GateOptions& options,
                                        const std::function<void(const CheckOutcome&)>& on_ready) {
  std::vector<CheckOutcome> outcomes;
  outcomes.reserve(scenarios.size());
  for (const std::string& scenario : scenarios) {
    outcomes.push_back(check_scenario(scenario, options));
    if (on_ready) on_ready(outcomes.back());
  }
  return outcomes;
}

/// Outcomes that worker threads put in any order and the calling thread
/// takes in input order.
class OrderedSlots {
 public:
  explicit OrderedSlots(std::size_t count) : slots_(count) {}

  void put(std::size_t i, CheckOutcome outcome) {
    std::lock_guard<std::mutex> lock(mutex_);
    slots_[i] = std::move(outcome);
    ready_.notify_all();
  }

  /// Waits for slot `i`, then empties it.
  CheckOutcome take(std::size_t i) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return slots_[i].has_value(); });
    CheckOutcome outcome = std::move(*slots_[i]);
    slots_[i].reset();
    return outcome;
  }

 private:
  std::vector<std::optional<CheckOutcome>> slots_;
  std::mutex mutex_;
  std::condition_variable ready_;
};

std::vector<CheckOutcome> check_on_threads(const std::vector<std::string>& scenarios, const GateOptions& options,
                                           std::size_t threads,
                                           const std::function<void(const CheckOutcome&)>& on_ready) {
  OrderedSlots slots(scenarios.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < scenarios.size(); i = next++) slots.put(i, check_scenario(scenarios[i], options));
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work);
  auto join_all = [&] {
    for (std::thread& thread : pool) thread.join();
  };
  std::vector<CheckOutcome> outcomes;
  outcomes.reserve(scenarios.size());
  try {
    for (std::size_t i = 0; i < scenarios.size(); ++i) {
      outcomes.push_back(slots.take(i));
      if (on_ready) on_ready(outcomes.back());
    }
  } catch (...) {
    next = scenarios.size();  // stop handing out work, then let running checks end
    join_all();
    throw;
  }
  join_all();
  return outcomes;
}

}  // namespace

std::vector<CheckOutcome> check_scenarios(const std::vector<std::string>& scenarios, const GateOptions& options,
                                          int jobs, const std::function<void(const CheckOutcome&)>& on_ready) {
  if (jobs < 1) jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::size_t threads = std::min(static_cast<std::size_t>(jobs), scenarios.size());
  if (threads <= 1) return check_in_turn(scenarios, options, on_ready);
  return check_on_threads(scenarios, options, threads, on_ready);
}

}  // namespace stepslide
