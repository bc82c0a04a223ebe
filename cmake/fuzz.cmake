# libFuzzer targets (fuzz/): fuzz_model (load, build, allocate and run a model) and fuzz_npy
# (the .npy reader), plus octet_fuzz_seeds, which writes their seed corpus. Needs clang:
# -fsanitize=fuzzer supplies libFuzzer's main, and -fsanitize=fuzzer-no-link instruments
# the engine for coverage. Combine with OCTET_SANITIZE=ON for ASan + UBSan findings.
option(OCTET_FUZZ "Build the libFuzzer targets in fuzz/ (clang only)" OFF)
if(NOT OCTET_FUZZ)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "OCTET_FUZZ=ON needs clang (libFuzzer), but CMAKE_CXX_COMPILER is "
                      "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER}: configure a fresh build "
                      "directory with -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
endif()

# Coverage instrumentation for everything the fuzzers reach.
foreach(target octet octet_isa_avx2 octet_isa_avx512vnni)
  if(TARGET ${target})
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endforeach()

foreach(name fuzz_model fuzz_npy)
  add_executable(${name} ${CMAKE_SOURCE_DIR}/fuzz/${name}.cc)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/fuzz)
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${name} PRIVATE octet -fsanitize=fuzzer)
endforeach()

add_executable(octet_fuzz_seeds ${CMAKE_SOURCE_DIR}/fuzz/make_seed_corpus.cc)
target_include_directories(octet_fuzz_seeds PRIVATE ${CMAKE_SOURCE_DIR}/src ${CMAKE_SOURCE_DIR}/fuzz)
target_link_libraries(octet_fuzz_seeds PRIVATE octet)
add_custom_target(octet_fuzz DEPENDS fuzz_model fuzz_npy octet_fuzz_seeds)
