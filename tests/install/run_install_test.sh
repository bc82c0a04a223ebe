#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a small C API program against it the
# ways a user would: CMake's find_package(Octet) (static and shared targets) and pkg-config
# (shared), then runs each on a model built in code. Also checks liboctet.so exports the
# public API and nothing of Octet's internals.
# usage: run_install_test.sh BUILD_DIR SOURCE_DIR CC MAKE_SIN_MODEL SANITIZE CROSSCOMPILING
set -euo pipefail
build="$1"; src="$2"; cc="$3"; make_sin="$4"; sanitize="${5:-OFF}"; cross="${6:-}"
case "${cross,,}" in
  1|on|yes|true)
    echo "skipped: cross build (the installed libraries are for the target, not this host)"
    exit 77 ;;
esac
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
"$make_sin" "$prefix/sin.tflite"
flags=()
if [ "$sanitize" = "ON" ]; then flags+=(-fsanitize=address,undefined); fi

# liboctet.so: a versioned SONAME, the C and C++ APIs exported, octet::* internals not.
lib="$(readlink -f "$prefix/lib/liboctet.so")"
soname="$(objdump -p "$lib" | awk '/SONAME/ {print $2}')"
echo "liboctet.so -> $(basename "$lib"), SONAME $soname"
[[ "$soname" == liboctet.so.* ]]
exports="$(nm -D --defined-only -C "$lib")"
for sym in TfLiteInterpreterCreate TfLiteSignatureRunnerInvoke TfLiteTensorCopyToBuffer \
           TfLiteIntArrayCreate 'tflite::InterpreterBuilder::InterpreterBuilder' \
           'tflite::FlatBufferModel::BuildFromFile' 'typeinfo for tflite::ErrorReporter'; do
  grep -qF "$sym" <<< "$exports" || { echo "not exported: $sym"; exit 1; }
done
leaks="$(grep -E ' octet::|\(octet::' <<< "$exports" | grep -v 'tflite::' || true)"
if [ -n "$leaks" ]; then
  echo "internal octet:: symbols are exported:"; head -n 5 <<< "$leaks"; exit 1
fi
echo "exports: $(wc -l <<< "$exports") symbols, no octet:: internals"

# 1. CMake: find_package(Octet), Octet::octet (static) and Octet::octet_shared.
cmake -S "$src/tests/install/consumer" -B "$prefix/consumer-build" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="${flags[*]}" -DCMAKE_CXX_FLAGS="${flags[*]}" \
  -DCMAKE_EXE_LINKER_FLAGS="${flags[*]}" >/dev/null
cmake --build "$prefix/consumer-build" >/dev/null
"$prefix/consumer-build/consumer_static" "$prefix/sin.tflite"
"$prefix/consumer-build/consumer_shared" "$prefix/sin.tflite"
# (grep reads captured text: with pipefail, grep -q closing a pipe early would fail it)
if grep -q liboctet <<< "$(ldd "$prefix/consumer-build/consumer_static")"; then
  echo "consumer_static should not need liboctet.so"; exit 1
fi

# 2. pkg-config: the shared library by default.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
read -r -a pc <<< "$(pkg-config --cflags --libs octet)"
"$cc" -std=c11 "${flags[@]}" "$src/tests/install/consumer/consumer.c" "${pc[@]}" \
  -Wl,-rpath,"$prefix/lib" -o "$prefix/consumer_pc"
"$prefix/consumer_pc" "$prefix/sin.tflite"
grep -q "$soname" <<< "$(ldd "$prefix/consumer_pc")"
# --static adds what liboctet.a itself needs.
grep -q -- '-lstdc++' <<< "$(pkg-config --static --libs octet)"
echo "4 passed: find_package static + shared, pkg-config shared, exports"
