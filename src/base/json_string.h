// Text as a JSON string literal: the one escaper shared by the scenario
// loader's messages (strict_json::quote) and the capture recorder's files.
#pragma once

#include <string>
#include <string_view>

namespace stepslide {

/// `text` quoted and escaped as a JSON string, byte for byte what nlohmann's
/// dump(-1, ' ', false, error_handler_t::replace) writes, so messages that
/// used to quote through nlohmann read the same: \" \\ \b \f \n \r \t, other
/// control characters as \u00XX, well-formed UTF-8 (and DEL) unchanged, and
/// each ill-formed UTF-8 sequence (its longest valid prefix) as one U+FFFD,
/// so the result is always valid JSON that a strict reader accepts.
std::string json_string(std::string_view text);

/// json_string, appended to `out`.
void append_json_string(std::string_view text, std::string& out);

}  // namespace stepslide
