// The subcommands of `stepslide`: each takes its parsed arguments, prints,
// and returns the process exit code (0 ok, 1 regression/mismatch, 2 invalid).
#pragma once

#include <string>
#include <vector>

namespace stepslide::cli {

struct RunArgs {
  std::vector<std::string> scenarios;
  std::string out;             ///< one file, or "-" for stdout; "" when not given
  std::string out_dir = "out";
  std::string controller = "stepslide";  ///< stepslide or bullet
  bool stats = false;                    ///< also print us/tick and sweeps/tick
};

struct CheckArgs {
  std::vector<std::string> paths;  ///< empty: the scenario root
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  std::string junit;               ///< "" when not given
  int jobs = 1;                    ///< 0: one per core
  bool self_check = false;         ///< also run each scenario twice in this process
  std::vector<std::string> tolerances;
  bool exact = false;
  std::string controller = "stepslide";  ///< bullet: expectations only, no goldens
  std::string report_dir;          ///< write DIR/index.html; "" when not given
  std::string color = "auto";      ///< auto, always or never
};

struct BlessArgs {
  std::vector<std::string> paths;
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
  bool force = false;
  std::string controller = "stepslide";  ///< only stepslide: goldens record ours
};

struct DiffArgs {
  std::string expected;
  std::string actual;
  std::vector<std::string> tolerances;
  bool exact = false;
};

int run_command(const RunArgs& args);
int check_command(const CheckArgs& args);
int bless_command(const BlessArgs& args);
int diff_command(const DiffArgs& args);
int validate_command(const std::vector<std::string>& paths);
struct PlotArgs {
  std::string scenario;
  std::string golden;   ///< reference trajectory given as --golden; "" when not given
  std::string against;  ///< reference trajectory given as --against; "" when not given
  std::string out;      ///< SVG file, or "-" for stdout
  std::vector<std::string> tolerances;
  bool exact = false;
};
int plot_command(const PlotArgs& args);
int settings_command(bool json);

/// "stepslide 0.1.0\nbuild: <fingerprint>"
std::string version_text();

}  // namespace stepslide::cli
