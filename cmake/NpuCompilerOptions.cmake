# SPDX-License-Identifier: Apache-2.0
# Compiler options shared by every target of the project (and, through the SDK, by vendor plugins).
add_library(npu_compile_options INTERFACE)
add_library(NpuPipeline::compile_options ALIAS npu_compile_options)
target_compile_options(npu_compile_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
# GCC 12 reports -Wrestrict/-Wstringop-overflow/-Wnull-dereference false positives inside libstdc++
# (std::string, std::vector) once optimising (GCC bugs 105329, 105651, 106757); they would fail release
# builds of valid code, so they are off for that compiler.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(npu_compile_options INTERFACE -Wno-restrict -Wno-stringop-overflow -Wno-null-dereference)
endif()
if(NPU_WARNINGS_AS_ERRORS)
  target_compile_options(npu_compile_options INTERFACE -Werror)
endif()
if(NPU_SANITIZE)
  target_compile_options(npu_compile_options INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(npu_compile_options INTERFACE -fsanitize=address,undefined)
endif()
if(NPU_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "NPU_BUILD_FUZZERS needs Clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  # Coverage feedback from every library and plugin; the fuzz targets add the libFuzzer driver.
  target_compile_options(npu_compile_options INTERFACE -fsanitize=fuzzer-no-link)
  target_link_options(npu_compile_options INTERFACE -fsanitize=fuzzer-no-link)
endif()
if(NPU_TSAN)
  target_compile_options(npu_compile_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(npu_compile_options INTERFACE -fsanitize=thread)
endif()
