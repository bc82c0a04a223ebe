#!/usr/bin/env python3
"""Prints the README's performance table: every model of the shared corpus (or $OCTET_MODELS)
timed with `octet bench MODEL --compare xnnpack`, Octet's built-in kernels and the XNNPACK
delegate alternating in one run, at 1 and 2 threads.

usage: scripts/perf_table.py [--octet build/octet] [--runs 50] [--models DIR]
"""
import argparse
import json
import os
import re
import subprocess
import sys

LINE = re.compile(r"built-in: median ([0-9.]+) ms .*xnnpack: median ([0-9.]+) ms")


def compare(octet, model, runs, threads):
    """(built-in ms, xnnpack ms) medians, or None when the model does not run."""
    cmd = [octet, "bench", model, "--compare", "xnnpack", "--runs", str(runs),
           "--warmup", "5", "--threads", str(threads)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None
    match = LINE.search(out.stdout)
    if out.returncode != 0 or not match:
        return None
    return float(match.group(1)), float(match.group(2))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--octet", default=os.path.join(here, "..", "build", "octet"))
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--models", default=os.environ.get(
        "OCTET_MODELS", os.path.join(here, "..", "..", "shared", "models")))
    args = parser.parse_args()
    with open(os.path.join(args.models, "manifest.json")) as f:
        manifest = json.load(f)
    models = []
    for case in manifest["cases"]:
        if case["group"] != "errors" and case["model"] not in [m for m, _ in models]:
            models.append((case["model"], case["group"]))
    cpu = subprocess.run([args.octet, "cpu"], capture_output=True, text=True).stdout
    path = re.search(r"active: (\S+)", cpu)
    print(f"Kernel path: {path.group(1) if path else '?'}; medians of {args.runs} alternating "
          "runs (`octet bench MODEL --compare xnnpack`).\n")
    print("| model | type | threads | Octet ms | XNNPACK ms | Octet / XNNPACK |")
    print("|---|---|---|---|---|---|")
    for model, group in models:
        for threads in (1, 2):
            result = compare(args.octet, os.path.join(args.models, model), args.runs, threads)
            if result is None:
                print(f"| {model[:-7]} | {group} | {threads} | – | – | does not run |")
                continue
            octet_ms, xnn_ms = result
            ratio = f"{octet_ms / xnn_ms:.2f}x" if xnn_ms > 0 else "–"
            print(f"| {model[:-7]} | {group} | {threads} | {octet_ms:.4f} | {xnn_ms:.4f} | "
                  f"{ratio} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
