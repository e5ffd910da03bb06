// Small text helpers shared by the gate's messages.
#pragma once

#include <cstddef>
#include <string>

namespace stepslide {

/// `text` without leading and trailing spaces, tabs and line breaks.
std::string trim(const std::string& text);

/// "1 expectation", "2 expectations".
std::string plural(std::size_t count, const std::string& noun);

/// `text` with a final '\n' added when it is missing (and not empty).
std::string ensure_newline(std::string text);

/// "error: MESSAGE\n": how every command words a problem on stderr.
std::string error_line(const std::string& message);

}  // namespace stepslide
