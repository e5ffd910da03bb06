// Splitting a check over several processes, by GoogleTest's and Bazel's
// environment protocol, so CI runners (and `ctest`-style wrappers) can shard
// the gate without options.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "stepslide/expected.h"

namespace stepslide {

struct Shard {
  int index = 0;
  int total = 1;
  std::string status_file;  ///< TEST_SHARD_STATUS_FILE, touched to tell Bazel we shard
  bool active() const { return total > 1; }
};

/// Returns the value of an environment variable, or null when unset.
using EnvLookup = std::function<const char*(const char*)>;

/// Reads GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX or Bazel's TEST_TOTAL_SHARDS/
/// TEST_SHARD_INDEX (empty counts as unset; when both pairs are set they must
/// agree). Fails when a value is not an integer, only one of a pair is set,
/// total < 1, or index is outside [0, total).
Expected<Shard> shard_from_env(const EnvLookup& env);

/// The files of this shard: those at sorted index i with i % total == index.
std::vector<std::string> select_shard(const std::vector<std::string>& files, const Shard& shard);

/// Creates (or updates) `shard.status_file` when set; the reason for a
/// failure is "FILE: <why>".
Status touch_shard_status_file(const Shard& shard);

}  // namespace stepslide
