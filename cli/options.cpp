#include "options.h"

#include <cstdlib>

namespace stepslide::cli {

const char* const kExitCodes =
    "Exit codes: 0 success; 1 a regression, a failed expectation or a mismatch; 2 invalid input or usage; 3 "
    "internal error: a run produced a NaN or an infinity (a bug: please report it).";

void add_tolerance_options(CLI::App* command, std::vector<std::string>* tolerances, bool* exact) {
  command
      ->add_option("--tol", *tolerances,
                   "COLUMN=ABS or COLUMN=abs:A,rel:R: a cell passes when |expected - actual| <= max(A, R*|expected|); "
                   "COLUMN is a column name or a glob ('local_*', quoted for the shell); repeatable, the most "
                   "specific wins, then the later; over the project file's and the scenario's tolerances, and "
                   "applied after --exact")
      ->allow_extra_args(false)
      ->type_name("COLUMN=TOL");
  command->add_flag("--exact", *exact,
                    "compare every column with tolerance 0, ignoring the project file's and the scenario's "
                    "tolerances (then --tol overrides)");
}

void add_root_options(CLI::App* command, std::string* scenario_root, std::string* golden_dir) {
  command
      ->add_option("--scenario-root", *scenario_root,
                   "root that golden paths are relative to (default: the project file's scenario_root, else this)")
      ->capture_default_str();
  command
      ->add_option("--golden-dir", *golden_dir,
                   "golden root: ROOT/a/b.json <-> GOLDEN/a/b.csv (default: the project file's golden_dir, else this)")
      ->capture_default_str();
}

namespace {

bool given(const CLI::App* command, const std::string& name) {
  const CLI::Option* option = command->get_option_no_throw(name);
  return option != nullptr && option->count() > 0;
}

}  // namespace

void add_project_options(CLI::App* command, ProjectUse* use) {
  CLI::Option* file = command->add_option("--project", use->file,
                                          "the project file, whose settings fill in what the command line leaves "
                                          "out (docs/format.md §4); default: stepslide.json in the working "
                                          "directory or the nearest folder above it, if any")
                          ->type_name("FILE");
  command->add_flag("--no-project", "read no project file: built-in defaults and the command line only")
      ->excludes(file);
  command->parse_complete_callback([command, use] {
    use->mode = given(command, "--no-project") ? ProjectUse::Mode::None
                : given(command, "--project")  ? ProjectUse::Mode::File
                                               : ProjectUse::Mode::Search;
    use->given.scenario_root = given(command, "--scenario-root");
    use->given.golden_dir = given(command, "--golden-dir");
    use->given.jobs = given(command, "--jobs");
    use->given.report_dir = given(command, "--report");
  });
}

void add_controller_option(CLI::App* command, std::string* controller, const std::string& what) {
  command->add_option("--controller", *controller, "stepslide (ours) or bullet (btKinematicCharacterController)" + what)
      ->check(CLI::IsMember({"stepslide", "bullet"}))
      ->capture_default_str();
}

const char* process_env(const char* name) { return std::getenv(name); }

}  // namespace stepslide::cli
