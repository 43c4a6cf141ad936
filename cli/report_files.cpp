// SPDX-License-Identifier: Apache-2.0
#include "report_files.hpp"

#include "npu/core/diagnostics.hpp"
#include "npu/report/comparison.hpp"
#include "npu/report/writers.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <exception>
#include <fstream>
#include <numeric>
#include <utility>

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
  const bool created = std::filesystem::create_directories(directory, error);
  if (error) {
    throw Error(ErrorKind::Usage, "cannot create output directory: " + error.message(),
                SourceLocation{directory.string(), 0, 0, {}});
  }
  // The files are independent: rendered and written side by side (the model file is megabytes, written
  // while the reports are rendered), then checked in order, so the error reported is the first file's
  // whatever the thread count.
  std::vector<std::filesystem::path> temporaries;
  for (const auto& file : pending) {
    temporaries.push_back(file.path);
    temporaries.back() += ".partial";
  }
  // Files of bytes (a generated model) start first: they take longest to write.
  std::vector<std::size_t> order(pending.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_partition(order.begin(), order.end(), [&](std::size_t index) { return !pending[index].bytes.empty(); });
  std::vector<char> failed(pending.size(), 0);
  std::vector<std::exception_ptr> renderErrors(pending.size());
  tbb::parallel_for(std::size_t{0}, pending.size(), [&](std::size_t position) {
    const std::size_t index = order[position];
    const PendingFile& file = pending[index];
    std::string rendered;
    if (file.render) {
      try {
        rendered = file.render();
      } catch (...) {
        renderErrors[index] = std::current_exception();
        return;
      }
    }
    std::ofstream out(temporaries[index], std::ios::binary);
    if (!file.bytes.empty()) {
      file.bytes.writeTo(out);
    } else {
      out << (file.render ? rendered : file.content);
    }
    out.close();
    failed[index] = !out;
  });
  const auto removeOutputs = [&] {
    removeAll(temporaries);
    if (created) {
      std::error_code ignored;
      std::filesystem::remove(directory, ignored); // only when empty: a directory this call made
    }
  };
  for (const std::exception_ptr& renderError : renderErrors) {
    if (renderError) {
      removeOutputs();
      std::rethrow_exception(renderError);
    }
  }
  for (std::size_t index = 0; index < pending.size(); ++index) {
    if (failed[index] != 0) {
      removeOutputs();
      throw Error(ErrorKind::Usage, "cannot write report file", SourceLocation{pending[index].path.string(), 0, 0, {}});
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
  // Each report is rendered from the same finished report, side by side; the files keep this order.
  const std::string base = report.network;
  std::vector<std::pair<std::filesystem::path, std::string (*)(const NetworkReport&)>> renderers;
  if (wants(ReportFormat::Text)) {
    renderers.emplace_back(directory / (base + ".txt"), &renderTextReport);
  }
  if (wants(ReportFormat::Csv)) {
    renderers.emplace_back(directory / (base + "_summary_" + report.memory.systemName + ".csv"), &renderSummaryCsv);
    renderers.emplace_back(directory / (base + "_per-layer.csv"), &renderPerLayerCsv);
  }
  if (wants(ReportFormat::Json)) {
    renderers.emplace_back(directory / (base + ".json"), &renderJsonReport);
  }
  if (wants(ReportFormat::Html)) {
    renderers.emplace_back(directory / (base + ".html"), &renderHtmlReport);
  }
  std::vector<PendingFile> pending;
  for (const auto& renderer : renderers) {
    const auto render = renderer.second;
    pending.push_back({renderer.first, {}, {}, [&report, render] { return render(report); }});
  }
  if (model != nullptr) {
    pending.push_back({directory / model->fileName, {}, model->bytes});
  }
  return writeFilesAtomically(pending, directory);
}

} // namespace npu::cli
