# liboctet.so beside liboctet.a, the CMake package (find_package(Octet)) and the version
# string of the C API. Included from CMakeLists.txt after the `octet` target and its
# install rules.

# TfLiteVersion() reports Octet's version.
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/c_api/c_api_model.cc PROPERTIES
                            COMPILE_DEFINITIONS "OCTET_VERSION=\"${PROJECT_VERSION}\"")

# --- the shared library: the static library's objects, whole, behind a version script -------
# Reusing liboctet.a's (position-independent) objects avoids compiling everything twice; the
# version script cmake/octet.map makes every symbol outside the public API local, which is
# what -fvisibility=hidden plus export attributes would give.
set(OCTET_SHARED_STUB ${CMAKE_BINARY_DIR}/octet_shared_stub.c)
if(NOT EXISTS ${OCTET_SHARED_STUB})
  file(WRITE ${OCTET_SHARED_STUB} "/* liboctet.so is liboctet.a, linked whole. */\n")
endif()
add_library(octet_shared SHARED ${OCTET_SHARED_STUB})
if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.24)
  target_link_libraries(octet_shared PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,octet>")
else()
  target_link_libraries(octet_shared PRIVATE -Wl,--whole-archive octet -Wl,--no-whole-archive)
endif()
# 0.x releases may break the ABI in any minor version: the SONAME carries major.minor then.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(OCTET_SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
else()
  set(OCTET_SOVERSION ${PROJECT_VERSION_MAJOR})
endif()
set_target_properties(octet_shared PROPERTIES
  OUTPUT_NAME octet
  VERSION ${PROJECT_VERSION}
  SOVERSION ${OCTET_SOVERSION}
  LINKER_LANGUAGE CXX
  LINK_DEPENDS ${CMAKE_SOURCE_DIR}/cmake/octet.map)
target_link_options(octet_shared PRIVATE
  "LINKER:--version-script=${CMAKE_SOURCE_DIR}/cmake/octet.map")
if(NOT OCTET_SANITIZE)
  target_link_options(octet_shared PRIVATE "LINKER:--no-undefined")
endif()
target_include_directories(octet_shared
  PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
         $<BUILD_INTERFACE:${OCTET_GEN_DIR}>
         $<INSTALL_INTERFACE:include>)
target_include_directories(octet_shared SYSTEM PUBLIC
  $<BUILD_INTERFACE:${FLATBUFFERS_INCLUDE_DIR}>)
target_compile_definitions(octet_shared PUBLIC FLATBUFFERS_LOCALE_INDEPENDENT=0)

# --- install: both libraries in one export set, and the package files ----------------------
install(TARGETS octet octet_shared EXPORT OctetTargets
        ARCHIVE DESTINATION lib LIBRARY DESTINATION lib RUNTIME DESTINATION bin)
install(EXPORT OctetTargets NAMESPACE Octet:: DESTINATION lib/cmake/Octet)
include(CMakePackageConfigHelpers)
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/OctetConfig.cmake.in
  ${CMAKE_BINARY_DIR}/OctetConfig.cmake INSTALL_DESTINATION lib/cmake/Octet)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/OctetConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/OctetConfig.cmake ${CMAKE_BINARY_DIR}/OctetConfigVersion.cmake
        DESTINATION lib/cmake/Octet)
