// `stepslide trace`: explain what the controller did on given ticks.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace stepslide::cli {

struct TraceArgs {
  std::string scenario;
  std::int64_t tick = 1;
  std::int64_t to = -1;  ///< -1: same as tick
  bool json = false;
};

CLI::App* add_trace(CLI::App& app, TraceArgs& args);
int trace_command(const TraceArgs& args);

}  // namespace stepslide::cli
