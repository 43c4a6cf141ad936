# SPDX-License-Identifier: Apache-2.0
# npu_add_test(NAME <name> SOURCES <files...> [LIBRARIES <libs...>] [LABELS <labels...>])
# One Boost.Test executable per component; each source file holds the tests of one unit.
function(npu_add_test)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES;LIBRARIES;LABELS" ${ARGN})
  add_executable(${ARG_NAME} ${ARG_SOURCES} "${PROJECT_SOURCE_DIR}/tests/support/test_main.cpp")
  target_link_libraries(${ARG_NAME} PRIVATE npu_compile_options npu_test_support ${ARG_LIBRARIES}
    Boost::unit_test_framework)
  target_compile_definitions(${ARG_NAME} PRIVATE BOOST_TEST_DYN_LINK)
  add_test(NAME ${ARG_NAME} COMMAND ${ARG_NAME} --log_level=warning)
  set_tests_properties(${ARG_NAME} PROPERTIES
    ENVIRONMENT "NPU_PIPELINE_SOURCE_DIR=${PROJECT_SOURCE_DIR};NPU_PIPELINE_BUILD_DIR=${PROJECT_BINARY_DIR}")
  if(ARG_LABELS)
    set_tests_properties(${ARG_NAME} PROPERTIES LABELS "${ARG_LABELS}")
  endif()
endfunction()
