#include "capture/file_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace stepslide::capture {

Status write_text_file(const std::string& path, const std::string& text) {
  if (path.empty()) return Status::failure("cannot write the scenario: the path is empty");
  struct stat info {};
  // lstat: a symlink is not replaced either (whatever it points at).
  if (::lstat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    return Status::failure(path + ": not a regular file; the scenario is written to regular files only");
  }
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  // O_EXCL: never write through something already at the temporary's name.
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Status::failure(path + ": cannot write: " + std::strerror(errno));
  std::FILE* file = ::fdopen(fd, "wb");
  if (file == nullptr) {
    const int error = errno;
    ::close(fd);
    std::remove(temporary.c_str());
    return Status::failure(path + ": cannot write: " + std::strerror(error));
  }
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  const int write_error = errno;
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    std::remove(temporary.c_str());
    return Status::failure(path + ": cannot write: " + std::strerror(written ? errno : write_error));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_error = errno;
    std::remove(temporary.c_str());
    return Status::failure(path + ": cannot write: " + std::strerror(rename_error));
  }
  return Status();
}

}  // namespace stepslide::capture
