// `stepslide fuzz`: random worlds and input, invariants checked every tick,
// violations shrunk and saved as scenario files; `--replay` checks files.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace stepslide::cli {

struct FuzzArgs {
  std::uint64_t seed = 1;
  std::int64_t count = 100;
  std::string out_dir = "fuzz-findings";
  std::int64_t max_ticks = 360;
  bool no_shrink = false;
  bool keep = false;
  std::vector<std::string> replay;  ///< scenario files to check instead of generating
};

CLI::App* add_fuzz(CLI::App& app, FuzzArgs& args);
int fuzz_command(const FuzzArgs& args);

}  // namespace stepslide::cli
