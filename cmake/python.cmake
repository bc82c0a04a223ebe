# The Python module: octet.Interpreter (tflite_runtime's Interpreter API) and the
# tflite_runtime compatibility package, built with pybind11 and NumPy from Debian
# (pybind11-dev, python3-dev, python3-numpy). The extension links the static library.
#
#   OCTET_BUILD_PYTHON   default ON when pybind11 and the Python headers are found (never for
#                        a cross build: the host's Python cannot load a target module)
#   Python3_EXECUTABLE   the interpreter to build for; by default the first `python3` that
#                        can import numpy (Debian's /usr/bin/python3 when a python3 earlier
#                        on PATH lacks it), since the module and its tests need NumPy.
#
# The package lands in ${CMAKE_BINARY_DIR}/python (PYTHONPATH for the tests); setup.py at
# the repository root drives this file for `pip install --no-build-isolation .`.

set(OCTET_PYTHON_FOUND OFF)
if(NOT CMAKE_CROSSCOMPILING)
  if(NOT Python3_EXECUTABLE)
    find_program(OCTET_PYTHON3_ON_PATH NAMES python3)
    mark_as_advanced(OCTET_PYTHON3_ON_PATH)
    foreach(candidate ${OCTET_PYTHON3_ON_PATH} /usr/bin/python3)
      if(EXISTS "${candidate}")
        execute_process(COMMAND "${candidate}" -c "import numpy"
                        RESULT_VARIABLE _octet_numpy_rc OUTPUT_QUIET ERROR_QUIET)
        if(_octet_numpy_rc EQUAL 0)
          set(Python3_EXECUTABLE "${candidate}")
          break()
        endif()
      endif()
    endforeach()
  endif()
  if(CMAKE_VERSION VERSION_LESS 3.18)
    find_package(Python3 COMPONENTS Interpreter Development QUIET)
  else()
    find_package(Python3 COMPONENTS Interpreter Development.Module QUIET)
  endif()
  if(Python3_FOUND)
    # With Python3 found first, pybind11's config uses it (FindPython mode).
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(Python3_FOUND AND pybind11_FOUND)
    set(OCTET_PYTHON_FOUND ON)
  endif()
endif()

option(OCTET_BUILD_PYTHON "Build the Python module (octet.Interpreter, tflite_runtime shim)"
       ${OCTET_PYTHON_FOUND})

if(OCTET_BUILD_PYTHON AND CMAKE_CROSSCOMPILING)
  message(STATUS "Python module: disabled (cross build)")
elseif(OCTET_BUILD_PYTHON AND NOT OCTET_PYTHON_FOUND)
  message(FATAL_ERROR "OCTET_BUILD_PYTHON=ON needs pybind11 (pybind11-dev) and the Python "
                      "headers (python3-dev)")
elseif(NOT OCTET_BUILD_PYTHON)
  message(STATUS "Python module: disabled (pybind11-dev / python3-dev not found, or "
                 "OCTET_BUILD_PYTHON=OFF)")
else()
  message(STATUS "Python module: enabled (${Python3_EXECUTABLE}, pybind11 ${pybind11_VERSION})")
  set(OCTET_PYTHON_DIR ${CMAKE_BINARY_DIR}/python)
  file(GLOB OCTET_PYTHON_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/python/src/*.cc)
  # NO_EXTRAS: no LTO or stripping; the module links the already-built static library.
  pybind11_add_module(octet_python MODULE NO_EXTRAS ${OCTET_PYTHON_SOURCES})
  target_link_libraries(octet_python PRIVATE octet)
  # Keep the static library's symbols inside the module (no clash with other extensions).
  target_link_options(octet_python PRIVATE -Wl,--exclude-libs,ALL)
  set_target_properties(octet_python PROPERTIES
    OUTPUT_NAME _octet
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${OCTET_PYTHON_DIR}/octet)
  foreach(config ${CMAKE_CONFIGURATION_TYPES})
    string(TOUPPER ${config} config_upper)
    set_target_properties(octet_python PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY_${config_upper} ${OCTET_PYTHON_DIR}/octet)
  endforeach()
  # The pure-Python packages next to the extension, refreshed on every build.
  add_custom_target(octet_python_package ALL
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_SOURCE_DIR}/python/octet
            ${OCTET_PYTHON_DIR}/octet
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${CMAKE_SOURCE_DIR}/python/tflite_runtime
            ${OCTET_PYTHON_DIR}/tflite_runtime
    COMMENT "Python packages: octet, tflite_runtime -> ${OCTET_PYTHON_DIR}")
  add_dependencies(octet_python octet_python_package)

  if(OCTET_BUILD_TESTS)
    # Models the tests need that the corpus lacks (signatures, dynamic shapes, variables).
    add_executable(octet_python_test_models tests/python/make_test_models.cc)
    target_include_directories(octet_python_test_models PRIVATE ${CMAKE_SOURCE_DIR}/src)
    target_link_libraries(octet_python_test_models PRIVATE octet)
    add_dependencies(octet_python octet_python_test_models)

    set(OCTET_PYTHON_TEST_ENV
        "PYTHONPATH=${OCTET_PYTHON_DIR}"
        "OCTET_TEST_MODEL_MAKER=$<TARGET_FILE:octet_python_test_models>"
        "OCTET_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
        "PYTHONDONTWRITEBYTECODE=1")
    set(OCTET_PYTHON_TEST ON)
    if(OCTET_SANITIZE)
      # The module is ASan-instrumented: a non-ASan python needs the runtime loaded first,
      # and libstdc++ with it (else ASan cannot find the real __cxa_throw and aborts on the
      # first C++ exception). Python's own allocations at exit are not leaks of ours.
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                      OUTPUT_VARIABLE OCTET_LIBASAN OUTPUT_STRIP_TRAILING_WHITESPACE)
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so
                      OUTPUT_VARIABLE OCTET_LIBSTDCXX OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND IS_ABSOLUTE "${OCTET_LIBASAN}"
         AND IS_ABSOLUTE "${OCTET_LIBSTDCXX}")
        list(APPEND OCTET_PYTHON_TEST_ENV "LD_PRELOAD=${OCTET_LIBASAN}:${OCTET_LIBSTDCXX}"
             "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1"
             "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
      else()
        set(OCTET_PYTHON_TEST OFF)
        message(STATUS "Python module test: not run under the sanitizers with this compiler "
                       "(GCC's libasan.so is preloaded into python; not found here)")
      endif()
    endif()
    # run_pytest.py turns a missing pytest or NumPy into exit 77 (skipped, with a message);
    # otherwise the test has pytest's status. Without the corpus, its tests skip by name.
    if(OCTET_PYTHON_TEST)
      add_test(NAME python_module
               COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/python/run_pytest.py
                       ${CMAKE_SOURCE_DIR}/tests/python)
      set_tests_properties(python_module PROPERTIES
        ENVIRONMENT "${OCTET_PYTHON_TEST_ENV}" SKIP_RETURN_CODE 77 TIMEOUT 900)
    endif()
  endif()
endif()
