# Installing dtcalc: the `dtcalc` binary, its presets and models, the library
# (dtcalc::dtcalc, headers under include/dtcalc, the same paths as in src/)
# and the C ABI (dtcalc::capi, libdtcalc.so with include/dtcalc.h), with a
# CMake package so that another project can
#     find_package(dtcalc CONFIG REQUIRED)
#     target_link_libraries(app PRIVATE dtcalc::dtcalc)   # C++: the headers are the contract
#     target_link_libraries(tool PRIVATE dtcalc::capi)    # C: dtcalc.h
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(DTCALC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/dtcalc)

# Include paths that work from the build tree and from an install.
set_property(TARGET dtcalc_lib PROPERTY INTERFACE_INCLUDE_DIRECTORIES
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>;$<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/src>;$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/dtcalc>")
set_target_properties(dtcalc_lib PROPERTIES EXPORT_NAME dtcalc)
set_target_properties(dtcalc_capi PROPERTIES EXPORT_NAME capi)

install(TARGETS dtcalc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS dtcalc_lib dtcalc_capi EXPORT dtcalcTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtcalc
  FILES_MATCHING PATTERN "*.h" PATTERN "cli" EXCLUDE)
install(FILES ${PROJECT_BINARY_DIR}/src/chakra/et_def.pb.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dtcalc/chakra)
install(FILES ${PROJECT_SOURCE_DIR}/src/capi/dtcalc.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/presets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/dtcalc/presets FILES_MATCHING PATTERN "*.toml")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/ DESTINATION ${CMAKE_INSTALL_DATADIR}/dtcalc/models FILES_MATCHING PATTERN "*.toml")

install(EXPORT dtcalcTargets NAMESPACE dtcalc:: DESTINATION ${DTCALC_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/dtcalcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/dtcalcConfig.cmake INSTALL_DESTINATION ${DTCALC_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dtcalcConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dtcalcConfig.cmake ${PROJECT_BINARY_DIR}/dtcalcConfigVersion.cmake
  DESTINATION ${DTCALC_INSTALL_CMAKEDIR})

# CTest: install into a scratch prefix, then build and run a project that
# finds the package (C++ and C consumers). Not for sanitizer builds: the
# consumers are built without the sanitizer runtimes.
if(DTCALC_BUILD_TESTS AND NOT DTCALC_SANITIZE)
  add_test(NAME cmake_package
           COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DSOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}/package_test
                   -DWORK_DIR=${PROJECT_BINARY_DIR}/package_test -DGENERATOR=${CMAKE_GENERATOR}
                   -P ${CMAKE_CURRENT_LIST_DIR}/run_package_test.cmake)
endif()
