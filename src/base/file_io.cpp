// File helpers: bounded whole-file reads and atomic replace-by-rename writes.

#include "base/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace stepslide {

namespace {

namespace fs = std::filesystem;

// strerror() is not thread-safe and `check -j N` reads and writes from
// several threads. glibc's strerror_r returns char*, POSIX's returns int;
// these overloads accept either.
[[maybe_unused]] const char* strerror_result(const char* message, const char*) { return message; }
[[maybe_unused]] const char* strerror_result(int rc, const char* buffer) { return rc == 0 ? buffer : "unknown error"; }

std::string error_text(int error_number) {
  char buffer[256] = {};
  return strerror_result(strerror_r(error_number, buffer, sizeof buffer), buffer);
}

/// Closes a descriptor on every path out of a function.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const { return fd_; }
  /// Closes now and reports the result (close can report a failed write).
  int close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

std::string too_large(long long size, long long max_bytes) {
  return "file too large: " + std::to_string(size) + " bytes (limit " + std::to_string(max_bytes) + ")";
}

/// Reads to end of file; `size_hint` is only a capacity guess (0 for pipes
/// and /proc files, whose size is not known in advance).
Expected<std::string> read_all(int fd, long long size_hint, long long max_bytes) {
  std::string content;
  content.reserve(static_cast<std::size_t>(size_hint));
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Expected<std::string>::failure("cannot read: " + error_text(errno));
    if (n == 0) return content;
    if (static_cast<long long>(content.size()) + n > max_bytes) {
      return Expected<std::string>::failure(too_large(static_cast<long long>(content.size()) + n, max_bytes));
    }
    content.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string write_all(int fd, const std::string& content) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return error_text(errno);
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  return "";
}

/// Opens a fresh temporary file beside `target`. The name carries the pid
/// so concurrent processes never share one; a counter suffix separates
/// threads of one process and skips leftovers of a crashed run.
int create_temp_file(const fs::path& target, fs::path* temp, std::string* error) {
  const fs::path base =
      target.parent_path() / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()));
  constexpr int kAttempts = 100;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    *temp = base;
    if (attempt > 0) temp->concat("." + std::to_string(attempt));
    const int fd = ::open(temp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno == EINTR || errno == EEXIST) continue;
    *error = "cannot create temporary file " + temp->string() + ": " + error_text(errno);
    return -1;
  }
  *error = "cannot create temporary file " + base.string() + ": too many leftovers";
  return -1;
}

/// Makes the rename itself durable; failure here loses nothing that was
/// promised, so it is not reported.
void sync_directory(const fs::path& directory) {
  const int fd = ::open(directory.empty() ? "." : directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

/// What kind of file `mode` is, for "it is a ..." messages.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// Only regular files are ever replaced: renaming over a device node, a FIFO
/// or a socket would turn it into a regular file (as root, `--out /dev/null`
/// replaced /dev/null), and a symbolic link is refused rather than followed
/// or replaced, so a link planted in an output directory can neither redirect
/// a write nor be silently turned into a file. lstat, so the link itself is seen.
std::string refuse_non_regular(const fs::path& target) {
  struct stat info {};
  if (::lstat(target.c_str(), &info) != 0) return "";  // nothing there yet (or unreachable: the open will say)
  if (S_ISREG(info.st_mode)) return "";
  // The caller names the path ("cannot write PATH: ...").
  return std::string("it is ") + kind_of(info.st_mode) + "; only regular files are written or replaced";
}

std::string prepare_target(const fs::path& target, Parents parents) {
  if (target.empty() || !target.has_filename()) return "cannot write: no file name in \"" + target.string() + "\"";
  const fs::path parent = target.parent_path();
  std::error_code ec;
  if (!parent.empty() && parents == Parents::Create) {
    fs::create_directories(parent, ec);
    if (ec) return "cannot create directory " + parent.string() + ": " + ec.message();
  }
  return refuse_non_regular(target);
}

/// Replacing a file keeps its permission bits (a golden stays 0644 even
/// under a stricter umask); best effort, as a new file would get the umask's.
void copy_mode(const fs::path& target, int fd) {
  struct stat info {};
  if (::stat(target.c_str(), &info) == 0 && S_ISREG(info.st_mode)) ::fchmod(fd, info.st_mode & 07777);
}

/// Writes and flushes the temp file; on failure returns the reason and the
/// caller removes it.
std::string fill_temp_file(FileDescriptor& fd, const fs::path& temp, const std::string& content) {
  std::string problem = write_all(fd.get(), content);
  if (!problem.empty()) return "cannot write " + temp.string() + ": " + problem;
  if (::fsync(fd.get()) != 0) return "cannot flush " + temp.string() + ": " + error_text(errno);
  if (fd.close() != 0) return "cannot close " + temp.string() + ": " + error_text(errno);
  return "";
}

}  // namespace

Expected<std::string> read_file(const std::string& path, long long max_bytes) {
  return read_file_checked(path, max_bytes, false);
}

Expected<std::string> read_regular_file(const std::string& path, long long max_bytes) {
  return read_file_checked(path, max_bytes, true);
}

Expected<std::string> read_file_checked(const std::string& path, long long max_bytes, bool regular_only) {
  // O_NONBLOCK: opening a FIFO that no one writes to would otherwise wait
  // forever; reads block again once it is open (a writerless FIFO reads as empty).
  int raw = -1;
  do {
    raw = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  } while (raw < 0 && errno == EINTR);
  if (raw < 0) return Expected<std::string>::failure("cannot open: " + error_text(errno));
  FileDescriptor fd(raw);
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags != -1) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return Expected<std::string>::failure("cannot open: " + error_text(errno));
  if (S_ISDIR(info.st_mode)) return Expected<std::string>::failure("cannot open: " + error_text(EISDIR));
  if (regular_only && !S_ISREG(info.st_mode)) {
    return Expected<std::string>::failure(std::string("cannot read: it is ") + kind_of(info.st_mode) +
                                          ", not a regular file");
  }
  const long long size = S_ISREG(info.st_mode) ? static_cast<long long>(info.st_size) : 0;
  if (size > max_bytes) return Expected<std::string>::failure(too_large(size, max_bytes));
  return read_all(fd.get(), size, max_bytes);
}

Status write_file_atomic(const std::string& path, const std::string& content, Parents parents) {
  const fs::path target(path);
  std::string problem = prepare_target(target, parents);
  if (!problem.empty()) return Status::failure(problem);

  fs::path temp;
  const int raw = create_temp_file(target, &temp, &problem);
  if (raw < 0) return Status::failure(problem);
  FileDescriptor fd(raw);
  copy_mode(target, fd.get());

  problem = fill_temp_file(fd, temp, content);
  if (problem.empty() && ::rename(temp.c_str(), target.c_str()) != 0) {
    problem = "cannot rename " + temp.string() + " to " + target.string() + ": " + error_text(errno);
  }
  if (!problem.empty()) {
    ::unlink(temp.c_str());
    return Status::failure(problem);
  }
  sync_directory(target.parent_path());
  return Status();
}

Status not_an_input(const std::string& output, const std::vector<std::string>& inputs) {
  std::error_code ec;
  if (!fs::exists(output, ec)) return Status();
  for (const std::string& input : inputs) {
    if (fs::equivalent(output, input, ec) && !ec) {
      return Status::failure("cannot write " + output + ": it is the input " + input +
                             " (an output never replaces a file the command reads)");
    }
  }
  return Status();
}

}  // namespace stepslide
