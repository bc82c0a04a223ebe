# Tests of the C API, the shared library and the installed package. Included from the tests
# section of CMakeLists.txt (after octet_tests and octet_make_sin_model exist).
#   c_api_golden          C11 program, liboctet.so: a corpus model through the C API vs. golden
#   c_api_go_sequence     C11 program, liboctet.a: mattn/go-tflite's call sequence vs. golden
#   c_api_install_consumer  cmake --install, then a consumer built with find_package(Octet)
#                         and with pkg-config (skipped when cross compiling)
# The C programs are built with octet_tests, so cross builds (whose ctest runs target programs
# through CMAKE_CROSSCOMPILING_EMULATOR) run them too.
set(OCTET_MODELS_DEFAULT ${CMAKE_SOURCE_DIR}/../shared/models)
foreach(prog c_api_golden go_tflite_sequence)
  add_executable(octet_${prog} ${CMAKE_SOURCE_DIR}/tests/c_api/${prog}.c)
  set_target_properties(octet_${prog} PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON
                                                 C_EXTENSIONS OFF)
  target_compile_options(octet_${prog} PRIVATE -Wall -Wextra -Werror -pedantic)
  add_dependencies(octet_tests octet_${prog})
endforeach()
target_link_libraries(octet_c_api_golden PRIVATE octet_shared)
target_link_libraries(octet_go_tflite_sequence PRIVATE octet)

add_test(NAME c_api_golden COMMAND octet_c_api_golden ${OCTET_MODELS_DEFAULT})
add_test(NAME c_api_go_sequence COMMAND octet_go_tflite_sequence ${OCTET_MODELS_DEFAULT})
add_test(NAME c_api_install_consumer
         COMMAND ${CMAKE_SOURCE_DIR}/tests/install/run_install_test.sh
                 ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR} ${CMAKE_C_COMPILER}
                 $<TARGET_FILE:octet_make_sin_model> "${OCTET_SANITIZE}"
                 "${CMAKE_CROSSCOMPILING}")
set_tests_properties(c_api_golden c_api_go_sequence c_api_install_consumer PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600)
