// SPDX-License-Identifier: Apache-2.0
// The Slurm batch scripts `sweep --slurm` writes.
#include "slurm_scripts.hpp"

#include <boost/test/unit_test.hpp>

using namespace npu::sweep;

namespace {

SlurmJob job() {
  SlurmJob job{"macs sweep",  "/opt/npu/bin/npu-pipeline", "/shared/s.yaml",
               "/shared/out", {"--plugin-path", "/p x"},   {}};
  job.slurm.shards = 3;
  job.slurm.cpusPerTask = 2;
  job.slurm.partition = "cpu";
  job.slurm.options = {"--mem=4G"};
  return job;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sweep_slurm_scripts)

BOOST_AUTO_TEST_CASE(the_array_runs_one_shard_per_task_with_the_task_cpus_as_threads) {
  const std::string script = renderArrayScript(job());
  BOOST_TEST(script.find("#SBATCH --array=0-2\n") != std::string::npos);
  BOOST_TEST(script.find("#SBATCH --job-name=macs-sweep-shards\n") != std::string::npos);
  BOOST_TEST(script.find("#SBATCH --partition=cpu\n") != std::string::npos);
  BOOST_TEST(script.find("#SBATCH --mem=4G\n") != std::string::npos);
  BOOST_TEST(script.find("#SBATCH --output=/shared/out/slurm/shard-%a.log\n") != std::string::npos);
  BOOST_TEST(script.find("\n'/opt/npu/bin/npu-pipeline' sweep '/shared/s.yaml' -o '/shared/out' "
                         "'--plugin-path' '/p x' --shard \"${SLURM_ARRAY_TASK_ID}/3\" "
                         "--threads \"${SLURM_CPUS_PER_TASK:-2}\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_shard_whose_points_did_not_all_compile_still_ends_as_done) {
  const std::string script = renderArrayScript(job());
  BOOST_TEST(script.find("if [ \"$status\" -eq 1 ]; then status=0; fi") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_merge_job_builds_the_table_from_the_same_sweep_and_folder) {
  const std::string script = renderMergeScript(job());
  BOOST_TEST(script.find("exec '/opt/npu/bin/npu-pipeline' sweep merge '/shared/s.yaml' -o '/shared/out'") !=
             std::string::npos);
  BOOST_TEST(script.find("--array") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(submitting_makes_the_merge_depend_on_the_whole_array) {
  const std::string script = renderSubmitScript(job());
  BOOST_TEST(script.find("sbatch --parsable '/shared/out/slurm'/array.sh") != std::string::npos);
  BOOST_TEST(script.find("--dependency=afterany:${array}") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(shell_quoting_survives_single_quotes) {
  BOOST_TEST(shellQuote("it's") == "'it'\\''s'");
}

BOOST_AUTO_TEST_SUITE_END()
