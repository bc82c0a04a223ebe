#!/usr/bin/env bash
# Installs Octet into a temporary prefix, compiles the seed programs against the installed
# headers with `g++ prog.cc -IP/include $(pkg-config --static --libs octet)`, runs them and checks what they
# print against the math they compute.
# usage: run_seed_programs.sh BUILD_DIR SOURCE_DIR CXX SANITIZE(ON/OFF)
# (BUILD_DIR also holds octet_make_sin_model, which writes the seed's sin model.)
set -euo pipefail
build="$1"; src="$2"; cxx="$3"; sanitize="${4:-OFF}"
models="${OCTET_MODELS:-$src/../shared/models}"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
flags=()
if [ "$sanitize" = "ON" ]; then flags+=(-fsanitize=address,undefined); fi

# The static library's own dependencies (cpuinfo, pthreadpool, XNNPACK) come from the
# installed octet.pc, as a user's build would get them.
read -r -a libs <<< "$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --static --libs octet)"
build_prog() {  # build_prog NAME: compile tests/seeds/NAME.cc against the installed headers
  "$cxx" -std=c++17 "${flags[@]}" "$src/tests/seeds/$1.cc" -I"$prefix/include" "${libs[@]}" \
    -o "$prefix/$1"
}
check() {  # check LABEL GOT WANT
  echo "$1: got $2, want $3"
  python3 -c "import sys; sys.exit(0 if abs(float('$2') - float('$3')) < 1e-5 else 1)"
}

# MyDelegate (seed 1.2.2) reads /tmp/sin.tflite, as the seed does; f(2) = 2.152495.
"$build/octet_make_sin_model" /tmp/sin.tflite
build_prog my_delegate
# The seed program never frees its delegate or kernel objects: not our leak to report.
out="$(ASAN_OPTIONS=detect_leaks=0 "$prefix/my_delegate")"
echo "$out" | grep -q "kerenl_invoke"  # the delegate kernel really ran
check my_delegate "$(echo "$out" | tail -n 1)" 2.152495

# The corrected delegate runs every node of its subset: sin(sin(x)) + x is one subset.
build_prog sin_delegate
"$build/octet_make_sin_model" "$prefix/chain.tflite" --chain
out="$("$prefix/sin_delegate" "$prefix/chain.tflite" 2)"
echo "$out" | grep -q "delegate nodes: 1"
check sin_delegate_chain "$(echo "$out" | tail -n 1)" \
  "$(python3 -c 'import math; print(math.sin(math.sin(2)) + 2)')"
out="$("$prefix/sin_delegate" /tmp/sin.tflite 2)"
echo "$out" | grep -q "delegate nodes: 2"
check sin_delegate_seed "$(echo "$out" | tail -n 1)" 2.152495

# square (seed 1.1) on the shared corpus's copy of the sin model, at x = 10.
if [ ! -f "$models/sin_seed_example.tflite" ]; then
  echo "3 passed, 0 failed, 1 skipped: no shared model corpus at $models (set OCTET_MODELS)"
  exit 0
fi
build_prog square
check square "$("$prefix/square" "$models/sin_seed_example.tflite")" \
  "$(python3 -c 'import math; print("%f" % (math.sin(10) + 10 + math.sin(20)))')"
echo "4 passed, 0 failed"
