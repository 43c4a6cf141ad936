#include "cli_common.hpp"
#include "commands.hpp"

namespace npu::cli {

int compareCommand(const std::vector<std::string>& arguments) {
  (void)arguments;
  throw Error(ErrorKind::Usage, "compare: not available in this build", {},
              "the A/B comparison lands with the DP scheduler (issue 6)");
}

} // namespace npu::cli
