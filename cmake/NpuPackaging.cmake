# Installation of the SDK's CMake package, and the Debian package (cpack -G DEB).
include(CMakePackageConfigHelpers)

set(npu_cmake_install_dir "${CMAKE_INSTALL_LIBDIR}/cmake/NpuPipeline")
install(EXPORT NpuPipelineTargets NAMESPACE NpuPipeline:: DESTINATION "${npu_cmake_install_dir}")
configure_package_config_file(cmake/NpuPipelineConfig.cmake.in "${CMAKE_CURRENT_BINARY_DIR}/NpuPipelineConfig.cmake"
  INSTALL_DESTINATION "${npu_cmake_install_dir}"
  PATH_VARS NPU_PLUGIN_INSTALL_DIR)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/NpuPipelineConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/NpuPipelineConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/NpuPipelineConfigVersion.cmake" cmake/NpuPipelinePlugin.cmake
  DESTINATION "${npu_cmake_install_dir}")
install(FILES README.md CHANGELOG.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(DIRECTORY docs/ DESTINATION "${CMAKE_INSTALL_DOCDIR}" OPTIONAL)

set(CPACK_PACKAGE_NAME "npu-pipeline")
set(CPACK_PACKAGE_VENDOR "npu-pipeline")
set(CPACK_PACKAGE_CONTACT "npu-pipeline developers <dev@npu-pipeline.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
# Runtime libraries and what plugin authors need to build against the SDK (Debian 12 names).
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libboost-program-options1.74.0, libtbb12, libyaml-cpp0.7, libflatbuffers2, libboost-dev, cmake (>= 3.25), g++")
include(CPack)
