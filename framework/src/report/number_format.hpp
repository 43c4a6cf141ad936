#pragma once

#include <string>

namespace npu::detail {

/// A double as Python's repr() prints it ("14144.0", "0.000403588", "1e-05", "2477.7743639553205"), so
/// the Vela-compatible CSVs read the same to scripts written against Vela's output.
std::string pythonFloat(double value);

/// Percentage of part in whole; 100 when whole is 0 (Vela's convention).
double percentage(double part, double whole);

} // namespace npu::detail
