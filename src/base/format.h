// Numbers as text: exact for data, short for people.
#pragma once

#include <string>

namespace stepslide {

/// Shortest text that reads back to the same double (std::to_chars), for data
/// (trajectory cells, JSON): "nan", "inf", "-inf" for non-finite values, and
/// -0 written as 0 so that a sign of zero never makes a diff.
std::string format_number(double value);

/// Six significant digits, round-off noise below 5e-10 shown as 0: for
/// messages, labels and traces, which are read, not read back.
std::string readable_number(double value);

/// readable_number(value), with as many more digits as it takes to read as
/// past `limit` on value's side: a value just past a limit must not print as
/// the limit itself ("1.0000000000000001e-05 m, more than the tolerance 1e-05").
std::string readable_beside(double value, double limit);

/// `digits` significant digits (non-finite as format_number does), for
/// error and tolerance values in reports.
std::string format_significant(double value, int digits);

}  // namespace stepslide
