// `--filter GLOB`, shared by check, bless, run, list, review, accept and
// reject (the semantics are in src/gate/core/filter.h).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace stepslide::cli {

inline void add_filter_option(CLI::App* command, std::vector<std::string>* filters) {
  command
      ->add_option("--filter", *filters,
                   "keep scenarios whose name (path below the scenario root without .json, e.g. stairs/up_straight) "
                   "or path matches GLOB; '*' any characters but '/', '?' one, '**' any including '/', '**/' any "
                   "folders; --filter=-GLOB excludes; repeatable (kept: any include matches, no exclude does)")
      ->allow_extra_args(false)
      ->type_name("GLOB");
}

}  // namespace stepslide::cli
