// Trajectories on disk (SPEC §2): '#' metadata lines, a header of column
// names, one line of numbers per row. Written exactly (format_number), read
// strictly: every problem names its line and what was expected.
#pragma once

#include <string>
#include <string_view>

#include "stepslide/expected.h"
#include "scenario/trajectory.h"

namespace stepslide {

/// CSV text: metadata lines ("#" + line), the header, one line per row, "\n" endings.
std::string to_csv(const Trajectory& t);

/// Parses CSV text written by to_csv (or by hand); the reason for a failure
/// is "line N: what was expected, got what".
Expected<Trajectory> parse_csv(const std::string& text);

/// Reads and parses a trajectory file. The reason for a failure names the
/// file: "PATH: cannot open: ..." or "PATH: line N: ...".
Expected<Trajectory> read_trajectory_file(const std::string& path);

/// A trajectory file as stored: its bytes, and the table they hold (or why
/// they hold none). For callers that need more than the table: bless compares
/// the bytes, and check words an unreadable golden apart from a broken one.
struct StoredTrajectory {
  std::string bytes;
  Expected<Trajectory> table;
};

/// Reads a trajectory file and parses it. Fails only when the file cannot be
/// read, with read_file's reason (which does not name the file).
Expected<StoredTrajectory> read_stored_trajectory(const std::string& path);

/// Reads a whole cell as a number the way parse_csv does: what format_number
/// writes plus anything std::from_chars reads ("1e3", "-inf", "NaN"), but no
/// leading '+' or spaces.
bool parse_cell(std::string_view text, double* value);

}  // namespace stepslide
