#!/usr/bin/env bash
# Every test, as CI runs it (.ci/run), in three builds:
#  1. ASan + UBSan: every ctest test (unit, kernel, model, CLI, corpus, seed programs).
#  2. Plain optimized (Release): every test again, since the fast path is what users run, plus
#     the corpus with each kernel path this CPU has forced (conformance_<path>) and a short run
#     of the kernel benchmarks. Also leaves the release CLI at build/octet.
#  3. ThreadSanitizer: the library and tests/robustness/concurrent_interpreters_main.cc
#     (three threads, each with its own interpreter and two kernel threads, over shared
#     models; every output checked against a single-threaded run). Any race fails.
#  4. aarch64, cross-compiled: the gtest suite and the corpus under qemu-user, proving the
#     portable kernels off x86.
# Then a bounded fuzzing run (clang, libFuzzer, ASan + UBSan, fuzz/): each target for
# $OCTET_FUZZ_SECONDS (default 60) from a freshly generated seed corpus; any finding fails.
# The corpus is ../shared/models (or $OCTET_MODELS); its tests skip with a message without it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --cross
jobs="$(nproc)"
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }

# Sanitizer builds compile at -O1 with line tables only: 40% less compile time than -O2 -g,
# and the reports still name file and line.
san_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")

step "1/4 ASan+UBSan build and tests"
cmake -S . -B build-asan "${san_flags[@]}" -DOCTET_SANITIZE=ON \
  -DOCTET_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
(
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp"
  cd build-asan && ctest --output-on-failure -j"$jobs"
)

step "2/4 optimized build, tests, every kernel path, benchmark smoke"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")
build/octet cpu
if [ -x build/octet_bench ]; then
  build/octet_bench --benchmark_filter='mbv2_28_192to32|mbv2_28x192' --benchmark_min_time=0.01
fi

step "3/4 ThreadSanitizer build, concurrent interpreters"
cmake -S . -B build-tsan "${san_flags[@]}" -DOCTET_TSAN=ON \
  -DOCTET_BUILD_BENCHMARKS=OFF -DOCTET_BUILD_PYTHON=OFF -DOCTET_WITH_XNNPACK=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target octet_concurrency_tests
TSAN_OPTIONS=halt_on_error=1:abort_on_error=1 build-tsan/octet_concurrency_tests

step "4/4 aarch64 cross build, tests under qemu-user"
cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
  -DCMAKE_BUILD_TYPE=Release -DOCTET_WITH_XNNPACK=OFF >/dev/null
cmake --build build-aarch64 -j"$jobs" --target octet_tests octet_cli
# The CLI tests and seed programs run host binaries; the corpus runs below through qemu.
# The concurrency and allocation-failure executables are not built here (x86 runs them).
(cd build-aarch64 && ctest --output-on-failure -j"$jobs" -E '^Cli|^DelegateCli|conformance|seed_programs|^concurrent_interpreters$|^allocation_failure$')
printf '#!/bin/sh\nexec qemu-aarch64 -L /usr/aarch64-linux-gnu "%s" "$@"\n' \
  "$PWD/build-aarch64/octet" > build-aarch64/octet-qemu
chmod +x build-aarch64/octet-qemu
build-aarch64/octet-qemu cpu
tests/conformance/run_conformance.sh build-aarch64/octet-qemu "$PWD" \
  float,errors,int8,uint8,int16,hybrid || [ $? -eq 77 ]
step "fuzzing: clang ASan+UBSan libFuzzer build, each target ${OCTET_FUZZ_SECONDS:-60} s"
CC=clang CXX=clang++ cmake -S . -B build-fuzz "${san_flags[@]}" \
  -DOCTET_FUZZ=ON -DOCTET_SANITIZE=ON -DOCTET_BUILD_TESTS=OFF -DOCTET_BUILD_BENCHMARKS=OFF \
  -DOCTET_WITH_XNNPACK=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target octet_fuzz
rm -rf build-fuzz/ci-seeds build-fuzz/ci-corpus build-fuzz/ci-findings
build-fuzz/octet_fuzz_seeds build-fuzz/ci-seeds/fuzz_model build-fuzz/ci-seeds/fuzz_npy \
  "${OCTET_MODELS:-../shared/models}"
(
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  for target in fuzz_model fuzz_npy; do
    mkdir -p "build-fuzz/ci-corpus/$target" build-fuzz/ci-findings
    # libFuzzer exits non-zero on any crash, sanitizer report, leak, timeout or OOM.
    "build-fuzz/$target" "build-fuzz/ci-corpus/$target" "build-fuzz/ci-seeds/$target" \
      -max_total_time="${OCTET_FUZZ_SECONDS:-60}" -timeout=10 -rss_limit_mb=2048 \
      -max_len=262144 -print_final_stats=1 -artifact_prefix=build-fuzz/ci-findings/ \
      >"build-fuzz/ci-$target.log" 2>&1 || { tail -n 60 "build-fuzz/ci-$target.log"; exit 1; }
    grep -E '^#[0-9]+.*DONE|^stat::number_of_executed_units' "build-fuzz/ci-$target.log"
  done
)
step "all tests passed"
