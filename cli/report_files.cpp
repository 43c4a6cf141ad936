// SPDX-License-Identifier: Apache-2.0
#include "report_files.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/report/comparison.hpp"
#include "npu/report/writers.hpp"

#include <algorithm>
#include <fstream>

namespace npu::cli {

namespace {

void removeAll(const std::vector<std::filesystem::path>& files) {
  for (const auto& file : files) {
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
  }
}

} // namespace

std::vector<std::filesystem::path> writeFilesAtomically(const std::vector<PendingFile>& pending,
                                                        const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw Error(ErrorKind::Usage, "cannot create output directory: " + error.message(),
                SourceLocation{directory.string(), 0, 0, {}});
  }
  std::vector<std::filesystem::path> temporaries;
  for (const auto& file : pending) {
    auto temporary = file.path;
    temporary += ".partial";
    std::ofstream out(temporary, std::ios::binary);
    if (file.bytes.empty()) {
      out << file.content;
    } else {
      out.write(reinterpret_cast<const char*>(file.bytes.data()), static_cast<std::streamsize>(file.bytes.size()));
    }
    out.close();
    temporaries.push_back(temporary);
    if (!out) {
      removeAll(temporaries);
      throw Error(ErrorKind::Usage, "cannot write report file", SourceLocation{file.path.string(), 0, 0, {}});
    }
  }
  std::vector<std::filesystem::path> written;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    std::filesystem::rename(temporaries[i], pending[i].path, error);
    if (error) {
      removeAll(temporaries);
      removeAll(written);
      throw Error(ErrorKind::Usage, "cannot write report file: " + error.message(),
                  SourceLocation{pending[i].path.string(), 0, 0, {}});
    }
    written.push_back(pending[i].path);
  }
  return written;
}

std::vector<std::filesystem::path> writeComparisonFiles(const Comparison& comparison,
                                                        const std::filesystem::path& directory) {
  std::vector<PendingFile> pending;
  pending.push_back({directory / "compare_summary.csv", renderComparisonSummaryCsv(comparison)});
  for (const auto& model : comparison.models) {
    if (model.compared()) {
      pending.push_back({directory / (model.model + "_layers.csv"), renderComparisonLayersCsv(comparison, model)});
    }
  }
  pending.push_back({directory / "compare.html", renderComparisonHtml(comparison)});
  return writeFilesAtomically(pending, directory);
}

std::vector<std::filesystem::path> writeReportFiles(const NetworkReport& report,
                                                    const std::vector<ReportFormat>& formats,
                                                    const std::filesystem::path& directory,
                                                    const GeneratedModel* model) {
  const auto wants = [&](ReportFormat format) {
    return std::find(formats.begin(), formats.end(), format) != formats.end();
  };
  std::vector<PendingFile> pending;
  const std::string base = report.network;
  if (wants(ReportFormat::Text)) {
    pending.push_back({directory / (base + ".txt"), renderTextReport(report)});
  }
  if (wants(ReportFormat::Csv)) {
    pending.push_back({directory / (base + "_summary_" + report.memory.systemName + ".csv"), renderSummaryCsv(report)});
    pending.push_back({directory / (base + "_per-layer.csv"), renderPerLayerCsv(report)});
  }
  if (wants(ReportFormat::Json)) {
    pending.push_back({directory / (base + ".json"), renderJsonReport(report)});
  }
  if (wants(ReportFormat::Html)) {
    pending.push_back({directory / (base + ".html"), renderHtmlReport(report)});
  }
  if (model != nullptr) {
    pending.push_back({directory / model->fileName, {}, model->bytes});
  }
  return writeFilesAtomically(pending, directory);
}

} // namespace npu::cli
