// `stepslide view`: replay a run in 3D as one self-contained HTML page.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace stepslide::cli {

struct ViewArgs {
  std::string scenario;
  std::string golden;  ///< reference trajectory given as --golden; "" when not given
  std::string other;   ///< reference trajectory given as --other; "" when not given
  std::string out;     ///< the page; "" for <scenario name>.view.html, "-" for stdout
  std::string ticks;   ///< "A..B"; "" for every tick
  bool trace = false;
};

CLI::App* add_view(CLI::App& app, ViewArgs& args);
int view_command(const ViewArgs& args);

}  // namespace stepslide::cli
