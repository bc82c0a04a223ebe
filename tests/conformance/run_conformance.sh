#!/usr/bin/env bash
# Runs the shared golden corpus through the CLI for the groups Octet claims.
# usage: run_conformance.sh OCTET_BINARY SOURCE_DIR GROUPS [EXTRA conformance.py ARGS...]
# With OCTET_ISA set, every kernel runs on that path; a path this CPU lacks is skipped.
set -uo pipefail
octet="$1"; src="$2"; groups="$3"
shift 3
if [ -n "${OCTET_ISA:-}" ] && ! "$octet" cpu >/dev/null 2>&1; then
  echo "SKIPPED: this CPU cannot run kernel path '$OCTET_ISA' ($(OCTET_ISA= "$octet" cpu | head -n 1))"
  exit 77
fi
models="${OCTET_MODELS:-$src/../shared/models}"
tool="$src/../shared/tools/conformance.py"
[ -f "$tool" ] || tool="$models/../tools/conformance.py"
if [ ! -f "$models/manifest.json" ] || [ ! -f "$tool" ]; then
  echo "SKIPPED: no conformance corpus at $models (set OCTET_MODELS)"
  exit 77
fi
python3 "$tool" --octet "$octet" --manifest "$models/manifest.json" --group "$groups" --timeout 300 "$@"
