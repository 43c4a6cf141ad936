# SPDX-License-Identifier: Apache-2.0
# npu_add_plugin(<target> SOURCES <files...> [LIBRARIES <libs...>] [NO_INSTALL])
#
# Declares an npu-pipeline plugin: a MODULE library with hidden visibility (only the entry point
# `npu_pipeline_plugin_descriptor` is exported), linked against the framework, placed where the
# `npu-pipeline` binary looks for plugins, and installed beside the bundled ones. The same function
# is shipped in the SDK's CMake package, so in-tree and out-of-tree plugins are declared alike.
function(npu_add_plugin target)
  cmake_parse_arguments(ARG "NO_INSTALL" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  set_target_properties(${target} PROPERTIES
    PREFIX "npu_"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    CXX_STANDARD 20
    CXX_STANDARD_REQUIRED ON)
  if(DEFINED NPU_PLUGIN_BUILD_DIR)
    set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY "${NPU_PLUGIN_BUILD_DIR}")
  endif()
  target_link_libraries(${target} PRIVATE NpuPipeline::framework NpuPipeline::compile_options ${ARG_LIBRARIES})
  if(NOT ARG_NO_INSTALL)
    if(DEFINED NPU_PLUGIN_INSTALL_DIR)
      install(TARGETS ${target} LIBRARY DESTINATION "${NPU_PLUGIN_INSTALL_DIR}")
    else()
      install(TARGETS ${target} LIBRARY DESTINATION "lib/npu-pipeline/plugins")
    endif()
  endif()
endfunction()
