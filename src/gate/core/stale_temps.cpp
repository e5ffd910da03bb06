#include "gate/core/stale_temps.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <filesystem>
#include <signal.h>
#include <system_error>

namespace stepslide {

namespace {

namespace fs = std::filesystem;

constexpr const char* kMarker = ".tmp.";

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() <= 9 &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

/// kill(pid, 0) probes without signalling; EPERM means it exists as
/// another user's, so only ESRCH counts as gone.
bool process_gone(long pid) { return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH; }

/// The pid of a temporary named "...tmp.PID[.N]" after the marker at `at`.
long owner_after(const std::string& file_name, std::size_t at) {
  const std::string rest = file_name.substr(at + std::char_traits<char>::length(kMarker));
  const std::size_t dot = rest.find('.');
  const std::string pid = rest.substr(0, dot);
  if (!all_digits(pid)) return 0;
  if (dot != std::string::npos && !all_digits(rest.substr(dot + 1))) return 0;
  return std::stol(pid);
}

bool is_stale_file(const fs::directory_entry& entry) {
  std::error_code ec;
  if (!entry.is_regular_file(ec) || entry.is_symlink(ec)) return false;
  const long pid = temporary_owner(entry.path().filename().string());
  return pid > 0 && process_gone(pid);
}

}  // namespace

long temporary_owner(const std::string& file_name) {
  if (file_name.size() < 2 || file_name[0] != '.') return 0;
  const std::size_t at = file_name.rfind(kMarker);
  if (at == std::string::npos || at < 2) return 0;
  // The last ".tmp.": a target's own name may hold one too.
  return owner_after(file_name, at);
}

bool is_temporary_of(const std::string& file_name, const std::string& target_name) {
  const std::string prefix = "." + target_name + kMarker;
  if (file_name.compare(0, prefix.size(), prefix) != 0) return false;
  return owner_after(file_name, prefix.size() - std::char_traits<char>::length(kMarker)) > 0;
}

std::vector<std::string> find_stale_temporaries(const std::string& root) {
  std::vector<std::string> stale;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return stale;
  fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (is_stale_file(*it)) stale.push_back(it->path().lexically_normal().generic_string());
  }
  std::sort(stale.begin(), stale.end());
  return stale;
}

std::string stale_temporaries_warning(const std::string& root) {
  std::string text;
  for (const std::string& path : find_stale_temporaries(root)) {
    const long pid = temporary_owner(fs::path(path).filename().string());
    text += "warning: stale temporary file " + path + " left by an interrupted write (process " +
            std::to_string(pid) + " is gone); delete it, or run `stepslide bless` for its golden\n";
  }
  return text;
}

std::vector<std::string> remove_stale_temporaries_of(const std::string& target) {
  std::vector<std::string> removed;
  const fs::path path(target);
  const fs::path directory = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  const std::string name = path.filename().string();
  std::error_code ec;
  fs::directory_iterator it(directory, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (!is_temporary_of(it->path().filename().string(), name) || !is_stale_file(*it)) continue;
    std::error_code removal;
    if (fs::remove(it->path(), removal)) removed.push_back((path.parent_path() / it->path().filename()).generic_string());
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

}  // namespace stepslide
