#include "gate/core/run_hash.h"

#include <filesystem>

#include "gate/core/csv.h"
#include "gate/core/fingerprint.h"

namespace stepslide {

std::string trajectory_hash(const Trajectory& t) {
  Trajectory rows_only;
  rows_only.columns = t.columns;
  rows_only.rows = t.rows;
  return "fnv1a64:" + fnv1a64_hex(to_csv(rows_only));
}

std::string hash_name(const std::string& scenario, const std::string& scenario_root) {
  namespace fs = std::filesystem;
  const fs::path path = fs::path(scenario).lexically_normal();
  const fs::path relative = path.lexically_relative(fs::path(scenario_root).lexically_normal());
  const bool below = !relative.empty() && *relative.begin() != ".." && relative != ".";
  return (below ? relative : path).generic_string();
}

std::string hash_line(const NamedHash& h) {
  return h.hash.empty() ? "hash - " + h.name + " (no run)\n" : "hash " + h.hash + " " + h.name + "\n";
}

std::string suite_hash_line(const std::vector<NamedHash>& hashes) {
  std::string listing;
  for (const NamedHash& h : hashes) listing += h.name + " " + (h.hash.empty() ? "-" : h.hash) + "\n";
  const std::size_t n = hashes.size();
  return "hash fnv1a64:" + fnv1a64_hex(listing) + " suite of " + std::to_string(n) + " scenario" +
         (n == 1 ? "" : "s") + "\n";
}

}  // namespace stepslide
