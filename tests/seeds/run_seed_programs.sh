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
# -loctet links liboctet.so, which lives in the temporary prefix.
flags+=(-Wl,-rpath,"$prefix/lib")

# The link flags come from the installed octet.pc, as a user's build would get them (-loctet
# picks liboctet.so; --static adds liboctet.a's own dependencies, harmless here).
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

# A SimpleDelegate (TfLiteDelegateFactory) claiming float ADD/MUL, against the plain run.
build_prog simple_delegate
"$prefix/simple_delegate" | tee "$prefix/simple.out"
grep -q "simple delegate: outputs identical" "$prefix/simple.out"

# square (seed 1.1) on the shared corpus's copy of the sin model, at x = 10.
if [ ! -f "$models/sin_seed_example.tflite" ]; then
  echo "4 passed, 0 failed, 2 skipped: no shared model corpus at $models (set OCTET_MODELS)"
  exit 0
fi
build_prog square
check square "$("$prefix/square" "$models/sin_seed_example.tflite")" \
  "$(python3 -c 'import math; print("%f" % (math.sin(10) + 10 + math.sin(20)))')"

# label_image-style classifier: the same top-5 with no delegate, the SimpleDelegate and (when
# built in) XNNPACK; each prints its per-op profile.
build_prog label_image
classify() {  # classify KIND: prints the top-5 line, or "skip" (exit 77)
  local status=0
  "$prefix/label_image" "$models/mlperf_ic_resnet8_float.tflite" --delegate "$1" \
    > "$prefix/label_$1.out" || status=$?
  cat "$prefix/label_$1.out" >&2
  if [ "$status" = 77 ]; then echo skip; return 0; fi
  [ "$status" = 0 ] || return 1
  grep -q "profile (us per op):" "$prefix/label_$1.out"
  grep "^top-5:" "$prefix/label_$1.out"
}
want="$(classify none)"
[ "$(classify simple)" = "$want" ]
grep -q "FloatOpsDelegate" "$prefix/label_simple.out"  # the delegate kernels were profiled
xnn="$(classify xnnpack)"
if [ "$xnn" != skip ]; then
  # XNNPACK may round differently; the best class must agree.
  [ "$(echo "$xnn" | cut -d' ' -f2)" = "$(echo "$want" | cut -d' ' -f2)" ]
fi
echo "label_image: $want (none, simple${xnn:+, xnnpack: $xnn})"
echo "6 passed, 0 failed"
