#!/usr/bin/env bash
# Installs the Debian 12 packages Octet builds and tests with (skips what is present).
# --cross adds the aarch64 cross compiler and qemu-user (scripts/test.sh's third build).
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
packages=(build-essential cmake flatbuffers-compiler libflatbuffers-dev libcli11-dev
          libgtest-dev libgmock-dev libbenchmark-dev python3 pkg-config
          libcpuinfo-dev libpthreadpool-dev
          libgraphviz-dev libstb-dev  # octet inspect --graph, octet run --image
          clang libclang-rt-14-dev  # clang + libFuzzer: scripts/test.sh's fuzzing step
          pybind11-dev python3-dev python3-numpy python3-pytest python3-pil  # Python module
          python3-pip python3-venv)  # pip install --no-build-isolation . (in a venv)
if [ "${1:-}" = "--cross" ]; then packages+=(g++-aarch64-linux-gnu qemu-user); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
# Optional: the XNNPACK delegate (libxnnpack-dev's header needs pthreadpool.h too). Installed
# when the distribution has it; the build simply leaves the delegate out otherwise.
optional=(libxnnpack-dev)
for p in "${optional[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
  if apt-cache show "$p" >/dev/null 2>&1 || { $SUDO apt-get update -qq && apt-cache show "$p" >/dev/null 2>&1; }; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$p" ||
      echo "install-deps: optional package $p failed to install; building without it" >&2
  else
    echo "install-deps: optional package $p not available; building without it" >&2
  fi
done
