// Trajectories on disk (docs/format.md §2): '#' metadata lines, a header of column
// names, one line of numbers per row. Written exactly (format_number), read
// strictly: every problem names its line and what was expected.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "scenario/run/finite.h"
#include "scenario/trajectory.h"
#include "stepslide/expected.h"

namespace stepslide {

/// CSV text: metadata lines ("#" + line), the header, one line per row, "\n" endings.
std::string to_csv(const Trajectory& t);

/// Parses CSV text written by to_csv (or by hand); the reason for a failure
/// is "line N: what was expected, got what".
Expected<Trajectory> parse_csv(const std::string& text);

/// The largest trajectory file read (docs/format.md §2.1): every row the
/// loader's limits allow (ScenarioLimits::max_ticks + 1) × the columns × the
/// longest cell and its separator, plus the largest metadata.
std::int64_t max_trajectory_bytes();

/// Reads and parses a trajectory file; only a regular file of at most
/// max_trajectory_bytes() (symbolic links followed). The reason for a failure names the
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

/// Fails on the first NaN or infinite cell of a table as parse_csv read it
/// (metadata, header, then rows with no blank lines between), with "line N:
/// column C is nan" and `why`. A golden never holds one (docs/format.md §2.3).
Status check_finite_cells(const Trajectory& t, const std::string& why);

/// Reads a whole cell as a number the way parse_csv does: what format_number
/// writes plus anything std::from_chars reads ("1e3", "-inf", "NaN"), but no
/// leading '+' or spaces.
bool parse_cell(std::string_view text, double* value);

}  // namespace stepslide
