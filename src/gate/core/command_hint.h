// The commands the gate tells a person to run, exact and copy-pastable:
// `stepslide bless ...` after a missing golden, `stepslide accept ...` after a
// pending result, and for a scenario outside the scenario root, roots of its
// own under which it would have a golden (mapping it by file name alone put
// goldens where nothing maps to them).
#pragma once

#include <string>
#include <vector>

namespace stepslide {

/// A scenario root and the golden root it maps to.
struct Roots {
  std::string scenario_root = "scenarios";
  std::string golden_dir = "golden";
};

/// `word`, in single quotes only when the shell needs them.
std::string shell_word(const std::string& word);

/// "stepslide VERB [--scenario-root R] [--golden-dir G] ARG...": the roots
/// only when they are not the defaults, every word quoted as needed.
std::string command_hint(const std::string& verb, const Roots& roots, const std::vector<std::string>& args);

/// Roots under which `path` (a scenario file or a folder of them, outside
/// `current.scenario_root`) gets goldens of its own, never inside or around
/// the current golden root: an ancestor named like the scenario root with
/// its sibling named like the golden root (`/p/scenarios` -> `/p/golden`);
/// else the folder above the scenario's folder and `golden` in it
/// (`/tmp/elsewhere/bugs/x.json` -> `/tmp/elsewhere`, `/tmp/elsewhere/golden`);
/// else the scenario's folder and `golden` in it.
Roots roots_of_their_own(const std::string& path, const Roots& current);

/// True when `path` is a folder that holds the scenario root: naming it
/// takes in more than the scenario root, and no roots of its own fit it.
bool holds_scenario_root(const std::string& path, const Roots& current);

}  // namespace stepslide
