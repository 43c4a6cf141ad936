#include "report_files.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/report/writers.hpp"

#include <algorithm>
#include <fstream>

namespace npu::cli {

namespace {

struct PendingFile {
  std::filesystem::path path;
  std::string content;
};

void removeAll(const std::vector<std::filesystem::path>& files) {
  for (const auto& file : files) {
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
  }
}

} // namespace

std::vector<std::filesystem::path> writeReportFiles(const NetworkReport& report,
                                                    const std::vector<ReportFormat>& formats,
                                                    const std::filesystem::path& directory) {
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
    out << file.content;
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

} // namespace npu::cli
