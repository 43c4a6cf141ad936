#include "npu/core/diagnostics.hpp"

#include <iostream>

int main() {
  std::cout << "npu-pipeline\n";
  return 0;
}
