// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every file the compiler reads on a user's behalf (pipelines, system configs, memory modes, Vela .ini
// files, models) is read here: it must be a regular file no larger than the cap of its kind, so that
// /dev/zero, a FIFO or a directory is refused with a clear message instead of being read forever.
// Files are opened non-blocking and checked with fstat on the open descriptor: a FIFO never blocks the
// open, and a file swapped for something else between a check and the read is still caught.

#include "npu/core/api.hpp"
#include "npu/core/diagnostics.hpp"

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace npu {

/// Pipelines, system configs, memory modes and Vela .ini files are a few hundred bytes; 4 MiB leaves
/// room for generous comments and still bounds what a YAML or .ini parser is given.
inline constexpr std::uintmax_t kMaxTextFileBytes = std::uintmax_t{4} << 20;
/// Models: 1 GiB, far above what a microcontroller NPU's flash holds, below what would exhaust memory.
inline constexpr std::uintmax_t kMaxModelFileBytes = std::uintmax_t{1} << 30;

/// What a file is: its name in messages, its size cap, and the kind of error a bad file is (both exit 2:
/// a file that cannot be read is the user's setting, not a fault of the model's content).
struct InputFileKind {
  std::string_view what; ///< "pipeline file"
  std::uintmax_t maxBytes = kMaxTextFileBytes;
  ErrorKind errorKind = ErrorKind::Config;
};

inline constexpr InputFileKind kPipelineFile{"pipeline file", kMaxTextFileBytes, ErrorKind::Config};
inline constexpr InputFileKind kConfigFile{"config file", kMaxTextFileBytes, ErrorKind::Config};
inline constexpr InputFileKind kModelFile{"model file", kMaxModelFileBytes, ErrorKind::Usage};

/// Reads a whole file. A missing, unreadable or non-regular file, or one above the cap, is an Error of
/// `kind.errorKind` located at `where` (the setting that names the file) or, when that is empty, at the
/// file itself.
[[nodiscard]] NPU_API std::string readInputFile(const std::filesystem::path& file, const InputFileKind& kind,
                                                const SourceLocation& where = {});
[[nodiscard]] NPU_API std::vector<std::uint8_t>
readInputFileBytes(const std::filesystem::path& file, const InputFileKind& kind, const SourceLocation& where = {});
/// A whole file's bytes with readInputFile's checks, mapped read-only rather than copied where the system
/// allows it (a model of megabytes is then not copied into fresh memory page by page), else read. The
/// bytes stay valid while the object lives. A mapped file that another process truncates meanwhile ends
/// the process (SIGBUS), as with any mapped file: models are not expected to change while compiled.
class NPU_API InputFileBytes {
public:
  /// How much of the file the reader looks at: all of it (then mapped at once, which costs less than
  /// page by page), or parts (then only those are paged in).
  enum class Reading : std::uint8_t { Whole, Parts };

  InputFileBytes(const std::filesystem::path& file, const InputFileKind& kind, Reading reading,
                 const SourceLocation& where = {});
  ~InputFileBytes();
  InputFileBytes(const InputFileBytes&) = delete;
  InputFileBytes& operator=(const InputFileBytes&) = delete;

  [[nodiscard]] std::span<const std::uint8_t> bytes() const { return mapped_.empty() ? std::span(read_) : mapped_; }

private:
  std::span<const std::uint8_t> mapped_;
  std::vector<std::uint8_t> read_;
};

/// The same checks without reading the content (for choosing a reader by the path first).
NPU_API void checkInputFile(const std::filesystem::path& file, const InputFileKind& kind,
                            const SourceLocation& where = {});

} // namespace npu
