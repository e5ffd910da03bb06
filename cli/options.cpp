#include "options.h"

#include <cstdlib>

namespace stepslide::cli {

const char* const kExitCodes =
    "Exit codes: 0 success; 1 a regression, a failed expectation or a mismatch; 2 invalid input or usage.";

void add_tolerance_options(CLI::App* command, std::vector<std::string>* tolerances, bool* exact) {
  command
      ->add_option("--tol", *tolerances,
                   "COLUMN=ABS: absolute tolerance for one column, e.g. --tol y=1e-4; repeatable; "
                   "applied after --exact")
      ->allow_extra_args(false)
      ->type_name("COLUMN=ABS");
  command->add_flag("--exact", *exact, "compare every column with tolerance 0 (then --tol overrides)");
}

void add_root_options(CLI::App* command, std::string* scenario_root, std::string* golden_dir) {
  command->add_option("--scenario-root", *scenario_root, "root that golden paths are relative to")
      ->capture_default_str();
  command->add_option("--golden-dir", *golden_dir, "golden root: ROOT/a/b.json <-> GOLDEN/a/b.csv")
      ->capture_default_str();
}

void add_controller_option(CLI::App* command, std::string* controller, const std::string& what) {
  command->add_option("--controller", *controller, "stepslide (ours) or bullet (btKinematicCharacterController)" + what)
      ->check(CLI::IsMember({"stepslide", "bullet"}))
      ->capture_default_str();
}

const char* process_env(const char* name) { return std::getenv(name); }

}  // namespace stepslide::cli
