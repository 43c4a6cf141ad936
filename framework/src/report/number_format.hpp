// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>

namespace npu::detail {

/// A double as Python's repr() prints it ("14144.0", "0.000403588", "1e-05", "2477.7743639553205"), so
/// the Vela-compatible CSVs read the same to scripts written against Vela's output.
std::string pythonFloat(double value);

/// Fixed decimals, e.g. fixed(2.5, 2) == "2.50".
std::string fixed(double value, int decimals);

/// The change from a to b in percent, signed ("+12.5%", "-3.0%", "0.0%"); "n/a" when a is 0 and b is not.
std::string signedPercent(double a, double b);

/// Percentage of part in whole; 100 when whole is 0 (Vela's convention).
double percentage(double part, double whole);

} // namespace npu::detail
