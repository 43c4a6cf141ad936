// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "npu/core/file_bytes.hpp"
#include "npu/pipeline/pipeline.hpp"
#include "npu/plugin/codegen.hpp"
#include "npu/report/comparison.hpp"
#include "npu/report/report.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace npu::cli {

/// A file to write and its content: text, or bytes written from where they are (a generated model can
/// be as large as its input's weights, so it is not copied into a string).
struct PendingFile {
  std::filesystem::path path;
  std::string content;
  FileBytes bytes{}; ///< when not empty, written instead of `content`
  /// When set, renders the content as the file is written (each file is rendered and written by one
  /// task, beside the others); its exception, if any, is rethrown after every file is done.
  std::function<std::string()> render{};
};

/// Writes every file under a temporary name, side by side, then renames them all into place; on
/// failure removes everything, so nothing half-written is left behind (a rendering failure is reported
/// before a writing failure, each the first in the order of `files`). Creates the directory. Returns
/// the files written.
std::vector<std::filesystem::path> writeFilesAtomically(const std::vector<PendingFile>& files,
                                                        const std::filesystem::path& directory);

/// Writes the report in the given formats into the directory, named like Vela's files
/// (<network>_summary_<system>.csv, <network>_per-layer.csv) plus <network>.txt/.json/.html, and the
/// generated model when there is one. Every file is written to a temporary name first and renamed at
/// the end, so a failure leaves no half-written output behind. Returns the files written.
std::vector<std::filesystem::path> writeReportFiles(const NetworkReport& report,
                                                    const std::vector<ReportFormat>& formats,
                                                    const std::filesystem::path& directory,
                                                    const GeneratedModel* model = nullptr);

/// Writes compare_summary.csv, <model>_layers.csv per model and compare.html, all or nothing.
std::vector<std::filesystem::path> writeComparisonFiles(const Comparison& comparison,
                                                        const std::filesystem::path& directory);

} // namespace npu::cli
