#include "gate/core/sharding.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace stepslide {

namespace {

/// A whole decimal integer and nothing else.
std::optional<long long> parse_integer(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::size_t start = (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (start == text.size()) return std::nullopt;
  for (std::size_t i = start; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
  }
  return std::strtoll(text.c_str(), nullptr, 10);
}

/// One shard variable pair, e.g. GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX.
struct ShardPair {
  bool set = false;
  long long total = 1;
  long long index = 0;
};

/// The variable's value; empty counts as unset.
std::optional<std::string> env_value(const EnvLookup& env, const std::string& name) {
  const char* text = env(name.c_str());
  if (text == nullptr || *text == '\0') return std::nullopt;
  return std::string(text);
}

Expected<ShardPair> read_shard_pair(const EnvLookup& env, const std::string& total_name,
                                    const std::string& index_name) {
  const std::optional<std::string> total_text = env_value(env, total_name);
  const std::optional<std::string> index_text = env_value(env, index_name);
  if (!total_text && !index_text) return ShardPair{};
  if (!total_text || !index_text) {
    return Expected<ShardPair>::failure((total_text ? index_name : total_name) + " is not set but " +
                                        (total_text ? total_name : index_name) + " is: set both or neither");
  }
  const std::optional<long long> total = parse_integer(*total_text);
  const std::optional<long long> index = parse_integer(*index_text);
  if (!total || *total < 1 || *total > 1000000) {
    return Expected<ShardPair>::failure(total_name + "='" + *total_text + "': expected an integer from 1 to 1000000");
  }
  if (!index || *index < 0 || *index >= *total) {
    return Expected<ShardPair>::failure(index_name + "='" + *index_text + "': expected an integer from 0 to " +
                                        std::to_string(*total - 1) + " (" + total_name + "=" +
                                        std::to_string(*total) + ")");
  }
  return ShardPair{true, *total, *index};
}

std::string disagreement(const ShardPair& gtest, const ShardPair& bazel) {
  return "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS (" + std::to_string(gtest.index) + "/" + std::to_string(gtest.total) +
         ") and TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (" + std::to_string(bazel.index) + "/" +
         std::to_string(bazel.total) + ") disagree";
}

}  // namespace

Expected<Shard> shard_from_env(const EnvLookup& env) {
  const Expected<ShardPair> gtest = read_shard_pair(env, "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX");
  if (!gtest) return Expected<Shard>::failure(gtest.error());
  const Expected<ShardPair> bazel = read_shard_pair(env, "TEST_TOTAL_SHARDS", "TEST_SHARD_INDEX");
  if (!bazel) return Expected<Shard>::failure(bazel.error());
  if (gtest->set && bazel->set && (gtest->total != bazel->total || gtest->index != bazel->index)) {
    return Expected<Shard>::failure(disagreement(*gtest, *bazel));
  }
  const ShardPair& pair = gtest->set ? *gtest : *bazel;
  Shard shard;
  shard.total = static_cast<int>(pair.total);
  shard.index = static_cast<int>(pair.index);
  const char* status_file = env("TEST_SHARD_STATUS_FILE");
  if (status_file != nullptr) shard.status_file = status_file;
  return shard;
}

std::vector<std::string> select_shard(const std::vector<std::string>& files, const Shard& shard) {
  std::vector<std::string> mine;
  const std::size_t total = static_cast<std::size_t>(std::max(shard.total, 1));
  const std::size_t index = static_cast<std::size_t>(std::max(shard.index, 0));
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (i % total == index) mine.push_back(files[i]);
  }
  return mine;
}

Status touch_shard_status_file(const Shard& shard) {
  if (shard.status_file.empty()) return Status();
  std::FILE* file = std::fopen(shard.status_file.c_str(), "a");
  if (file == nullptr) return Status::failure(shard.status_file + ": " + std::strerror(errno));
  std::fclose(file);
  return Status();
}

}  // namespace stepslide
