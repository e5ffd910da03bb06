// `stepslide view`: replay a run in 3D as one self-contained HTML page.
#pragma once

#include <CLI/CLI.hpp>

#include "gate/view_run.h"

namespace stepslide::cli {

using ViewArgs = ViewFileRequest;

CLI::App* add_view(CLI::App& app, ViewArgs& args);
int view_command(const ViewArgs& args);

}  // namespace stepslide::cli
