// The project file (docs/format.md §4): `stepslide.json` at a project's root
// says once what every command would otherwise be told on each run — the
// scenario and golden roots, tolerances (per column, by glob, per directory),
// `-j`, the report directory. Commands find it by searching upward from the
// working directory; what the command line gives wins over it.
#pragma once

#include <optional>
#include <string>

#include "gate/core/tolerances.h"
#include "stepslide/expected.h"

namespace stepslide {

inline constexpr const char* kProjectFormat = "stepslide/project@1";
inline constexpr const char* kProjectFileName = "stepslide.json";

/// Limits of a project file, enforced with a clear error.
struct ProjectLimits {
  static constexpr long long max_file_bytes = 1ll << 20;
  static constexpr int max_json_depth = 16;
  static constexpr int max_jobs = 1024;
};

/// A project file, read and checked. Paths are resolved against the file's
/// folder, spelled as the file's path was ("../scenarios" for
/// "../stepslide.json"), so they work from the working directory.
struct Project {
  std::string file;  ///< the file read, as found or given
  std::optional<std::string> scenario_root;
  std::optional<std::string> golden_dir;
  std::optional<std::string> report_dir;
  std::optional<int> jobs;
  ProjectTolerances tolerances;
};

/// The project settings the command line gave itself: the file's do not
/// replace them.
struct ProjectGiven {
  bool scenario_root = false;
  bool golden_dir = false;
  bool jobs = false;
  bool report_dir = false;
};

/// Which project file a command reads. A library caller reads none unless it
/// asks; the CLI searches unless given `--project FILE` or `--no-project`.
struct ProjectUse {
  enum class Mode {
    None,    ///< read no project file
    Search,  ///< `stepslide.json` in `search_from` or the nearest folder above it
    File,    ///< exactly `file`
  };
  Mode mode = Mode::None;
  std::string file;
  std::string search_from = ".";
  ProjectGiven given;
};

/// `stepslide.json` in `start` or the nearest folder above it, up to the
/// filesystem root; nullopt when there is none. Spelled from `start`:
/// "stepslide.json", "../stepslide.json" for start "."; absolute for an
/// absolute start.
std::optional<std::string> find_project_file(const std::string& start);

/// Reads and checks a project file. Refused with every problem, one line
/// each: "FILE: /json/pointer: message", or "FILE: message" for the whole file.
Expected<Project> load_project_file(const std::string& path);

/// The same from text; `path` names the file in messages and is where its
/// relative paths start from.
Expected<Project> load_project_text(const std::string& text, const std::string& path);

/// The project file `use` asks for: nullopt for none (Mode::None, or a
/// search that found nothing), else the file read, or why it cannot be used.
Expected<std::optional<Project>> select_project(const ProjectUse& use);

}  // namespace stepslide
