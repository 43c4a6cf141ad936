# Compiler options shared by every target of the project (and, through the SDK, by vendor plugins).
add_library(npu_compile_options INTERFACE)
add_library(NpuPipeline::compile_options ALIAS npu_compile_options)
target_compile_options(npu_compile_options INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
  -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
if(NPU_WARNINGS_AS_ERRORS)
  target_compile_options(npu_compile_options INTERFACE -Werror)
endif()
if(NPU_SANITIZE)
  target_compile_options(npu_compile_options INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(npu_compile_options INTERFACE -fsanitize=address,undefined)
endif()
