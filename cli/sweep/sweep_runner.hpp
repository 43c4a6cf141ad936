// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "grid.hpp"
#include "point_store.hpp"
#include "sweep_spec.hpp"
#include "sweep_table.hpp"

#include "npu/host/plugin_host.hpp"
#include "npu/pipeline/pipeline.hpp"

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace npu::sweep {

/// One network × configuration, with the key its result is stored under.
struct PlannedPoint {
  std::size_t index = 0; ///< canonical: network-major, configuration-minor
  std::size_t network = 0;
  std::size_t configuration = 0;
  std::string key;
};

/// A sweep with its grid expanded, every configuration's pipeline resolved and every point keyed.
struct SweepPlan {
  SweepSpec spec;
  std::vector<std::filesystem::path> networks;
  std::vector<std::string> networkLabels;
  std::vector<Configuration> configurations;
  std::vector<ResolvedPipeline> pipelines; ///< one per configuration
  std::vector<PlannedPoint> points;

  [[nodiscard]] std::string describe(const PlannedPoint& point) const;
};

/// Expands and resolves everything before anything compiles, so a bad setting stops the sweep at
/// once (a Config error at the axis value that set it) rather than failing point after point.
[[nodiscard]] SweepPlan planSweep(SweepSpec spec, PluginHost& host, std::string_view toolVersion);

/// Compiles one point. A network that does not compile is a result ("failed" with the reason), not
/// an exception; so is a bug ("error").
[[nodiscard]] PointResult compilePoint(const SweepPlan& plan, const PlannedPoint& point);

struct RunCounts {
  std::size_t inShard = 0;
  std::size_t alreadyDone = 0;
  std::size_t compiled = 0;
  std::size_t notOk = 0; ///< points of the shard, stored before or compiled now, that failed or erred
};

/// Compiles the shard's points that have no stored result, in parallel (as many at once as TBB's
/// global limit allows), storing each as it finishes; reports each on `log`.
RunCounts runSweep(const SweepPlan& plan, const PointStore& store, Shard shard, std::ostream& log);

/// The table of every point from the store, in canonical order; points without a result are "missing".
[[nodiscard]] SweepTable collectTable(const SweepPlan& plan, const PointStore& store);

} // namespace npu::sweep
