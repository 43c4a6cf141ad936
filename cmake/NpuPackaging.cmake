# SPDX-License-Identifier: Apache-2.0
# Installation of the SDK's CMake package, and the Debian packages (cpack -G DEB, scripts/package.sh):
#   npu-pipeline      the runtime: the command, the framework library, the bundled plugins and configs,
#                     the Python module, docs; needs no compiler.
#   npu-pipeline-dev  the SDK for plugin authors: headers and the CMake package (find_package(NpuPipeline)).
include(CMakePackageConfigHelpers)

set(npu_cmake_install_dir "${CMAKE_INSTALL_LIBDIR}/cmake/NpuPipeline")
install(EXPORT NpuPipelineTargets NAMESPACE NpuPipeline:: DESTINATION "${npu_cmake_install_dir}" COMPONENT dev)
configure_package_config_file(cmake/NpuPipelineConfig.cmake.in "${CMAKE_CURRENT_BINARY_DIR}/NpuPipelineConfig.cmake"
  INSTALL_DESTINATION "${npu_cmake_install_dir}"
  PATH_VARS NPU_PLUGIN_INSTALL_DIR)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/NpuPipelineConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/NpuPipelineConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/NpuPipelineConfigVersion.cmake" cmake/NpuPipelinePlugin.cmake
  DESTINATION "${npu_cmake_install_dir}" COMPONENT dev)
install(FILES README.md CHANGELOG.md LICENSE DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime)
install(DIRECTORY docs/ DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT runtime OPTIONAL)
# Debian policy: every package has /usr/share/doc/<package>/copyright.
install(FILES packaging/copyright DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/npu-pipeline" COMPONENT runtime)
install(FILES packaging/copyright DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/npu-pipeline-dev" COMPONENT dev)

set(CPACK_PACKAGE_NAME "npu-pipeline")
set(CPACK_PACKAGE_VENDOR "npu-pipeline")
set(CPACK_PACKAGE_CONTACT "npu-pipeline developers <dev@npu-pipeline.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_LICENSE "Apache-2.0")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "npu-pipeline")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION "utils")
# The shared libraries it links are found by dpkg-shlibdeps (libtbb12, libyaml-cpp0.7, libboost-*, ...);
# the Python module needs the interpreter.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "python3 (>= 3.11), python3 (<< 3.12)")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "Compiler for microcontroller NPUs (Arm Ethos-U55/U65): command, plugins, Python module")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME "npu-pipeline-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION "libdevel")
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "npu-pipeline (= ${PROJECT_VERSION}), cmake (>= 3.25), g++ (>= 4:12)")
set(CPACK_COMPONENT_DEV_DESCRIPTION "SDK for npu-pipeline plugins: headers and the CMake package NpuPipeline")
include(CPack)
