// SPDX-License-Identifier: Apache-2.0
#include "npu/core/input_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

namespace npu {

namespace {

std::string bytesText(std::uintmax_t bytes) {
  if (bytes >= (std::uintmax_t{1} << 20) && bytes % (std::uintmax_t{1} << 20) == 0) {
    return std::to_string(bytes >> 20) + " MiB";
  }
  return std::to_string(bytes) + " bytes";
}

std::string_view fileTypeOf(mode_t mode) {
  if (S_ISDIR(mode)) {
    return "a directory";
  }
  if (S_ISFIFO(mode)) {
    return "a FIFO (named pipe)";
  }
  if (S_ISCHR(mode)) {
    return "a character device";
  }
  if (S_ISBLK(mode)) {
    return "a block device";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  return "not a plain file";
}

/// An open file descriptor, closed when it goes out of scope.
class Descriptor {
public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  Descriptor(Descriptor&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  Descriptor& operator=(Descriptor&&) = delete;
  [[nodiscard]] int get() const { return fd_; }
  [[nodiscard]] std::uintmax_t size() const { return size_; }
  void setSize(std::uintmax_t size) { size_ = size; }

private:
  int fd_;
  std::uintmax_t size_ = 0;
};

class InputFileReader {
public:
  InputFileReader(const std::filesystem::path& file, const InputFileKind& kind, const SourceLocation& where)
      : file_(file), kind_(kind), where_(where.empty() ? SourceLocation{file.string(), 0, 0, {}} : where) {}

  /// Opens without blocking (a FIFO with no writer would block a plain open) and checks the open file.
  [[nodiscard]] Descriptor open() const {
    Descriptor descriptor(::open(file_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (descriptor.get() < 0) {
      const int error = errno;
      if (error == ENOENT || error == ENOTDIR) {
        fail("does not exist", "check the path");
      }
      fail(std::string("cannot be opened: ") + std::strerror(error), "check the path and the file's permissions");
    }
    struct stat status {};
    if (::fstat(descriptor.get(), &status) != 0) {
      fail(std::string("cannot be examined: ") + std::strerror(errno));
    }
    if (!S_ISREG(status.st_mode)) {
      fail("is not a regular file (it is " + std::string(fileTypeOf(status.st_mode)) + ")",
           "give the path of an ordinary file");
    }
    if (static_cast<std::uintmax_t>(status.st_size) > kind_.maxBytes) {
      fail(tooLarge(static_cast<std::uintmax_t>(status.st_size)));
    }
    descriptor.setSize(static_cast<std::uintmax_t>(status.st_size));
    return descriptor;
  }

  template <typename Bytes>
  [[nodiscard]] Bytes read() const {
    return read<Bytes>(open());
  }

  /// The rest of the open file.
  template <typename Bytes>
  [[nodiscard]] Bytes read(const Descriptor& descriptor) const {
    Bytes content;
    content.reserve(static_cast<std::size_t>(descriptor.size()));
    std::array<char, 1 << 16> chunk{};
    for (;;) {
      const ssize_t count = ::read(descriptor.get(), chunk.data(), chunk.size());
      if (count == 0) {
        return content;
      }
      if (count < 0) {
        if (errno == EINTR) {
          continue;
        }
        fail(std::string("cannot be read: ") + std::strerror(errno));
      }
      // The size was checked when the file was opened; a file still growing is stopped at the cap.
      if (content.size() + static_cast<std::size_t>(count) > kind_.maxBytes) {
        fail(tooLarge(content.size() + static_cast<std::size_t>(count)));
      }
      // As the content's own byte type, so that the insertion is one memmove, not a loop of conversions.
      const auto* bytes = reinterpret_cast<const typename Bytes::value_type*>(chunk.data());
      content.insert(content.end(), bytes, bytes + count);
    }
  }

private:
  [[noreturn]] void fail(const std::string& problem, std::string hint = {}) const {
    throw Error(kind_.errorKind, std::string(kind_.what) + " '" + file_.string() + "' " + problem, where_,
                std::move(hint));
  }

  [[nodiscard]] std::string tooLarge(std::uintmax_t size) const {
    return "is too large (" + bytesText(size) + "; a " + std::string(kind_.what) + " may have at most " +
           bytesText(kind_.maxBytes) + ")";
  }

  const std::filesystem::path& file_;
  const InputFileKind& kind_;
  SourceLocation where_;
};

} // namespace

std::string readInputFile(const std::filesystem::path& file, const InputFileKind& kind, const SourceLocation& where) {
  return InputFileReader(file, kind, where).read<std::string>();
}

std::vector<std::uint8_t> readInputFileBytes(const std::filesystem::path& file, const InputFileKind& kind,
                                             const SourceLocation& where) {
  return InputFileReader(file, kind, where).read<std::vector<std::uint8_t>>();
}

InputFileBytes::InputFileBytes(const std::filesystem::path& file, const InputFileKind& kind, Reading reading,
                               const SourceLocation& where) {
  const InputFileReader reader(file, kind, where);
  const Descriptor descriptor = reader.open();
  if (descriptor.size() > 0) {
    const int populate = reading == Reading::Whole ? MAP_POPULATE : 0;
    void* mapped = ::mmap(nullptr, static_cast<std::size_t>(descriptor.size()), PROT_READ, MAP_PRIVATE | populate,
                          descriptor.get(), 0);
    if (mapped != MAP_FAILED) {
      mapped_ = std::span(static_cast<const std::uint8_t*>(mapped), static_cast<std::size_t>(descriptor.size()));
      return;
    }
  }
  read_ = reader.read<std::vector<std::uint8_t>>(descriptor);
}

InputFileBytes::~InputFileBytes() {
  if (!mapped_.empty()) {
    ::munmap(const_cast<std::uint8_t*>(mapped_.data()), mapped_.size());
  }
}

void checkInputFile(const std::filesystem::path& file, const InputFileKind& kind, const SourceLocation& where) {
  (void)InputFileReader(file, kind, where).open();
}

} // namespace npu
