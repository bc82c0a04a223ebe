#!/usr/bin/env bash
# A longer fuzzing campaign than CI's: scripts/fuzz.sh TARGET MINUTES
#   TARGET: fuzz_model (a .tflite model plus input data through load, build, allocate and
#           invoke) or fuzz_npy (the .npy reader).
# Builds build-fuzz (clang, libFuzzer, ASan + UBSan) if needed, keeps the growing corpus in
# build-fuzz/corpus/TARGET (seeded from the in-code models and ../shared/models, or
# $OCTET_MODELS), writes crashes to build-fuzz/findings/TARGET, and prints the executions and
# coverage at the end. Exits non-zero on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-}"
minutes="${2:-}"
case "$target" in
  fuzz_model | fuzz_npy) ;;
  *) echo "usage: scripts/fuzz.sh fuzz_model|fuzz_npy MINUTES" >&2; exit 2 ;;
esac
[[ "$minutes" =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh $target MINUTES" >&2; exit 2; }
jobs="${FUZZ_BUILD_JOBS:-$(nproc)}"

if [ ! -f build-fuzz/CMakeCache.txt ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOCTET_FUZZ=ON -DOCTET_SANITIZE=ON -DOCTET_BUILD_TESTS=OFF -DOCTET_BUILD_BENCHMARKS=OFF \
    -DOCTET_WITH_XNNPACK=OFF >/dev/null
fi
cmake --build build-fuzz -j"$jobs" --target octet_fuzz

models="${OCTET_MODELS:-../shared/models}"
seeds=build-fuzz/seeds
rm -rf "$seeds"
build-fuzz/octet_fuzz_seeds "$seeds/fuzz_model" "$seeds/fuzz_npy" "$models"
corpus="build-fuzz/corpus/$target"
findings="build-fuzz/findings/$target"
mkdir -p "$corpus" "$findings"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
log="build-fuzz/$target.log"
set +e
"build-fuzz/$target" "$corpus" "$seeds/$target" -max_total_time=$((minutes * 60)) \
  -timeout=10 -rss_limit_mb=2048 -max_len=262144 -print_final_stats=1 \
  -artifact_prefix="$findings/" 2>&1 | tee "$log" | grep -E '^#[0-9]+.*(pulse|DONE)|ERROR|SUMMARY'
status=${PIPESTATUS[0]}
set -e
echo "== $target: $(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}') execs," \
  "$(grep -E '^#[0-9]+.*DONE' "$log" | grep -oE 'cov: [0-9]+ ft: [0-9]+' | tail -1)," \
  "corpus $(find "$corpus" -type f | wc -l) files in $corpus"
if [ "$status" -ne 0 ]; then
  echo "== $target: FINDING (exit $status); reproducer in $findings/" >&2
  exit "$status"
fi
