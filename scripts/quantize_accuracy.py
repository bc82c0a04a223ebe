#!/usr/bin/env python3
"""Octet's quantizer against the converter's int8 twins shipped in the corpus.

For each float model with an int8 twin: calibrate `octet quantize` on seeded random inputs
drawn from the twin's input range, then run the float model, the twin and Octet's model on
fresh random inputs (and on pictures, for the image models) and report how often each int8
model's top class agrees with the float model's (for the autoencoder: the mean error against
the float output), plus both int8 models' speed under Octet's kernels (alternating runs).

Usage: scripts/quantize_accuracy.py [--octet build/octet] [--models ../shared/models]
                                    [--pictures FILE...] [--samples 50]
Needs Debian's python3-numpy (and python3-pil for --pictures).
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

import numpy as np

CASES = [  # float model, int8 twin, kind
    ("mlperf_ic_resnet8_float", "mlperf_ic_resnet8_int8", "classifier"),
    ("mlperf_vww_float", "mlperf_vww_int8", "classifier"),
    ("mlperf_kws_float", "mlperf_kws_int8", "classifier"),
    ("mlperf_ad_toycar_float", "mlperf_ad_toycar_int8_intio", "autoencoder"),
]


def inspect_input(octet, model):
    out = subprocess.run([octet, "inspect", model], capture_output=True, text=True, check=True).stdout
    m = re.search(r"input  0: '[^']*' (\w+) \[([^\]]*)\](?: scale=(\S+) zero_point=(\S+))?", out)
    shape = [int(d) for d in m.group(2).split(",")]
    scale = float(m.group(3)) if m.group(3) else None
    zero = int(m.group(4)) if m.group(4) else None
    return m.group(1), shape, scale, zero


def run(octet, model, x, workdir):
    np.save(os.path.join(workdir, "in.npy"), x)
    subprocess.run([octet, "run", model, "-i", os.path.join(workdir, "in.npy"), "-o", workdir],
                   check=True, capture_output=True)
    return np.load(os.path.join(workdir, "output_0.npy"))


def to_int8(x, scale, zero):
    return np.clip(np.round(x / scale) + zero, -128, 127).astype(np.int8)


def dequant(y, scale, zero):
    return scale * (y.astype(np.float32) - zero)


def output_params(octet, model):
    out = subprocess.run([octet, "inspect", model], capture_output=True, text=True, check=True).stdout
    m = re.search(r"output 0: '[^']*' (\w+) \[[^\]]*\](?: scale=(\S+) zero_point=(\S+))?", out)
    return (float(m.group(2)), int(m.group(3))) if m.group(2) else (1.0, 0)


def bench_ratio(octet, a, b, rounds=5, runs=60):
    """Median invoke time of a and b, measured in alternating rounds."""
    times = {a: [], b: []}
    for _ in range(rounds):
        for model in (a, b):
            out = subprocess.run([octet, "bench", model, "--runs", str(runs), "--warmup", "5"],
                                 capture_output=True, text=True, check=True).stdout
            times[model].append(float(re.search(r"median ([0-9.]+) ms", out).group(1)))
    return statistics.median(times[a]), statistics.median(times[b])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--octet", default="build/octet")
    p.add_argument("--models", default=os.environ.get("OCTET_MODELS", "../shared/models"))
    p.add_argument("--pictures", nargs="*", default=[])
    p.add_argument("--samples", type=int, default=50)
    args = p.parse_args()
    work = tempfile.mkdtemp(prefix="octet_qacc_")
    for float_name, twin_name, kind in CASES:
        fm = os.path.join(args.models, float_name + ".tflite")
        tm = os.path.join(args.models, twin_name + ".tflite")
        if not (os.path.exists(fm) and os.path.exists(tm)):
            print(f"{float_name}: skipped (not in {args.models})")
            continue
        _, shape, s, z = inspect_input(args.octet, tm)
        lo, hi = s * (-128 - z), s * (127 - z)
        rng = np.random.default_rng(2026)
        calib = rng.uniform(lo, hi, [32] + shape[1:]).astype(np.float32)
        np.save(os.path.join(work, "calib.npy"), calib)
        ours = os.path.join(work, float_name + "_octet_int8.tflite")
        subprocess.run([args.octet, "quantize", fm, "-o", ours, "--calibration",
                        os.path.join(work, "calib.npy"), "--io", "int8", "--layers", "0"],
                       check=True, capture_output=True)
        _, _, os_, oz = inspect_input(args.octet, ours)
        t_out, o_out = output_params(args.octet, tm), output_params(args.octet, ours)

        def compare(inputs, label):
            agree_t = agree_o = 0
            err_t, err_o = [], []
            for x in inputs:
                yf = run(args.octet, fm, x[None].astype(np.float32), work).ravel()
                yt = dequant(run(args.octet, tm, to_int8(x[None], s, z), work), *t_out).ravel()
                yo = dequant(run(args.octet, ours, to_int8(x[None], os_, oz), work), *o_out).ravel()
                agree_t += int(np.argmax(yt) == np.argmax(yf))
                agree_o += int(np.argmax(yo) == np.argmax(yf))
                err_t.append(np.mean(np.abs(yt - yf)))
                err_o.append(np.mean(np.abs(yo - yf)))
            n = len(inputs)
            if kind == "classifier":
                print(f"  {label:>8}: top-1 agreement with float: twin {agree_t}/{n}, octet {agree_o}/{n}; "
                      f"mean |error|: twin {np.mean(err_t):.4f}, octet {np.mean(err_o):.4f}")
            else:
                print(f"  {label:>8}: mean |error| vs float: twin {np.mean(err_t):.4f}, octet {np.mean(err_o):.4f}")

        print(f"{float_name}: input range [{lo:.3g}, {hi:.3g}] (the twin's), calibrated on 32 random inputs")
        compare(rng.uniform(lo, hi, [args.samples] + shape[1:]).astype(np.float32), "random")
        if args.pictures and len(shape) == 4 and shape[3] == 3:
            from PIL import Image
            pics = []
            for path in args.pictures:
                img = Image.open(path).convert("RGB").resize((shape[2], shape[1]), Image.BILINEAR)
                pics.append(lo + np.asarray(img, dtype=np.float32) / 255.0 * (hi - lo))
            compare(pics, "pictures")
        tt, to = bench_ratio(args.octet, tm, ours)
        print(f"  speed (Octet kernels, median of alternating runs): twin {tt:.3f} ms, octet {to:.3f} ms")


if __name__ == "__main__":
    main()
