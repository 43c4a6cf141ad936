// SPDX-License-Identifier: Apache-2.0
#include "html_page.hpp"

#include <cmath>

namespace npu::html {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string grouped(double value) {
  const std::string digits = fixed(std::fabs(value), 0);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) {
      out += ',';
    }
    out += digits[i];
  }
  return (value < 0 && digits != "0" ? "-" : "") + out;
}

std::string pageOpen(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" +
         escape(title) +
         "</title>\n<style>\n"
         "body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:1.5em 2em;color:#1d1d1f;max-width:none}\n"
         "h1{font-size:1.6em;margin:0 0 .2em}h2{font-size:1.3em;margin:1.6em 0 .4em;border-bottom:1px solid #ddd}\n"
         ".sub{color:#555;margin:0 0 1em}.note{margin:.2em 0 1em;color:#333}.warning{color:#b00020;font-weight:bold}\n"
         "table{border-collapse:collapse;margin:.6em 0;font-size:.9em}\n"
         "td,th{border:1px solid #d5d5d5;padding:3px 8px;text-align:right;white-space:nowrap}\n"
         "th{background:#f0f2f5;position:sticky;top:0}td.l,th.l{text-align:left}tr:nth-child(even) "
         "td{background:#fafafa}\n"
         ".scroll{overflow-x:auto;width:100%}table.wide{width:100%;font-size:.8em}"
         "table.wide td,table.wide th{padding:2px 5px}table.wide th{white-space:normal}"
         "td.name,td.wrap{white-space:normal;overflow-wrap:anywhere;text-align:left}td.name{min-width:10em}\n"
         ".better{color:#1a7f37;font-weight:bold}.worse{color:#b00020;font-weight:bold}\n"
         ".summary{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}.summary table "
         "td:first-child{text-align:left}\n"
         "figure{margin:1em 0;width:100%}figcaption{font-weight:bold;font-size:1.05em;margin-bottom:.2em}\n"
         "svg.chart{width:100%;height:auto;display:block}\n"
         ".axis{stroke:#333;stroke-width:1}.grid{stroke:#e3e3e3;stroke-width:1}\n"
         ".tick{font-size:12px;fill:#333}.axis-label{font-size:13px;fill:#111}.legend{font-size:13px;fill:#111}\n"
         ".swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}\n"
         "</style></head><body>\n<h1>" +
         escape(title) + "</h1>\n";
}

std::string pageClose() {
  return "</body></html>\n";
}

} // namespace npu::html
