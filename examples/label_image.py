#!/usr/bin/env python3
"""Classifies a picture with an image classification .tflite model and prints the top 5.

Runs on Octet through the tflite_runtime API (the same script runs on TFLite's own
tflite_runtime). Needs NumPy and Pillow (Debian: python3-numpy python3-pil).

  python3 examples/label_image.py \\
      --model ../shared/models/coral_mobilenet_v1_0.25_128_quant.tflite \\
      --image cat.jpg [--labels labels.txt] [--threads 2]

The picture is resized to the model's input size. Float inputs get (pixel - mean) / std;
uint8 inputs get the pixels as they are (as TFLite's label_image does) and int8 inputs the
pixels minus 128. Quantized outputs are dequantized. Without --labels the class indices
are printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import List, Optional, Sequence, Tuple

import numpy as np
from PIL import Image

try:  # Octet's package; TFLite's tflite_runtime works the same
    from octet import Interpreter
except ImportError:  # pragma: no cover - only without Octet installed
    from tflite_runtime.interpreter import Interpreter


def load_labels(path: Optional[str]) -> Optional[List[str]]:
    """One label per line, or None without a file."""
    if path is None:
        return None
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f]


def prepare_input(
    image: Image.Image, detail: dict, mean: float, std: float
) -> np.ndarray:
    """The picture as the model's input tensor: resized, and normalized for float models."""
    _, height, width, channels = (int(d) for d in detail["shape"])
    mode = "L" if channels == 1 else "RGB"
    pixels = np.asarray(image.convert(mode).resize((width, height)), dtype=np.float32)
    pixels = pixels.reshape(1, height, width, channels)
    dtype = np.dtype(detail["dtype"])
    if dtype.kind == "f":
        return ((pixels - mean) / std).astype(dtype)
    if dtype == np.uint8:
        return pixels.astype(np.uint8)
    if dtype == np.int8:
        return (pixels - 128).astype(np.int8)
    raise ValueError(f"unsupported input type {dtype} (float, uint8 or int8 pictures only)")


def scores_of(output: np.ndarray, detail: dict) -> np.ndarray:
    """The output as float scores (dequantized when the output is quantized)."""
    scale, zero_point = detail["quantization"]
    flat = output.reshape(-1)
    if np.dtype(detail["dtype"]).kind == "f" or scale == 0:
        return flat.astype(np.float32)
    return (flat.astype(np.float32) - zero_point) * scale


def top_k(scores: np.ndarray, k: int) -> List[Tuple[int, float]]:
    """The k best (index, score) pairs, best first (ties: lower index first)."""
    order = np.argsort(-scores, kind="stable")[:k]
    return [(int(i), float(scores[i])) for i in order]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", "-m", required=True, help=".tflite classification model")
    parser.add_argument("--image", "-i", required=True, help="picture (any format Pillow reads)")
    parser.add_argument("--labels", "-l", help="labels file, one class per line")
    parser.add_argument("--input_mean", type=float, default=127.5)
    parser.add_argument("--input_std", type=float, default=127.5)
    parser.add_argument("--threads", type=int, default=None, help="kernel threads")
    parser.add_argument("--top", type=int, default=5, help="how many classes to print")
    args = parser.parse_args(argv)

    interpreter = Interpreter(model_path=args.model, num_threads=args.threads)
    interpreter.allocate_tensors()
    input_detail = interpreter.get_input_details()[0]
    output_detail = interpreter.get_output_details()[0]
    if len(input_detail["shape"]) != 4:
        print(f"error: {args.model} does not take one NHWC picture", file=sys.stderr)
        return 1

    with Image.open(args.image) as image:
        interpreter.set_tensor(
            input_detail["index"],
            prepare_input(image, input_detail, args.input_mean, args.input_std),
        )
    start = time.perf_counter()
    interpreter.invoke()
    elapsed_ms = (time.perf_counter() - start) * 1000
    scores = scores_of(interpreter.get_tensor(output_detail["index"]), output_detail)

    labels = load_labels(args.labels)
    for index, score in top_k(scores, args.top):
        name = labels[index] if labels is not None and index < len(labels) else f"class {index}"
        print(f"{score:.6f}: {index} {name}")
    print(f"time: {elapsed_ms:.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
