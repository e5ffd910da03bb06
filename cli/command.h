// A subcommand of `stepslide`: it declares its CLI11 options, bound to the
// request it will hand to the library, and runs once the command line has
// been parsed. Each lives in its own file with both halves, options and
// behaviour; main.cpp only lists them.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace stepslide::cli {

class Command {
 public:
  virtual ~Command() = default;
  /// Adds the subcommand and its options to `app`.
  virtual CLI::App* add_to(CLI::App& app) = 0;
  /// Does the work after a successful parse; returns the exit code (0 ok,
  /// 1 regression or mismatch, 2 invalid input or usage).
  virtual int run() = 0;
};

std::unique_ptr<Command> make_fuzz_command();
std::unique_ptr<Command> make_trace_command();
std::unique_ptr<Command> make_run_command();
std::unique_ptr<Command> make_check_command();
std::unique_ptr<Command> make_bless_command();
std::unique_ptr<Command> make_diff_command();
std::unique_ptr<Command> make_validate_command();
std::unique_ptr<Command> make_plot_command();
std::unique_ptr<Command> make_settings_command();
std::unique_ptr<Command> make_view_command();
std::unique_ptr<Command> make_list_command();
std::unique_ptr<Command> make_review_command();
std::unique_ptr<Command> make_accept_command();
std::unique_ptr<Command> make_reject_command();
std::unique_ptr<Command> make_import_command();
std::unique_ptr<Command> make_probe_command();
std::unique_ptr<Command> make_map_command();

}  // namespace stepslide::cli
