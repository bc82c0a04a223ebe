"""examples/label_image.py on pictures made here (no downloads)."""

import os
import pathlib
import subprocess
import sys
from typing import List

import numpy as np
import pytest

from conftest import REPO, corpus_cases

Image = pytest.importorskip("PIL.Image", reason="Pillow is not installed (python3-pil)")

EXAMPLE = REPO / "examples" / "label_image.py"


def label_image(*args: str) -> List[str]:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_generated_picture(models: pathlib.Path, tmp_path: pathlib.Path) -> None:
    y, x = np.mgrid[0:90, 0:120]
    rgb = np.stack([x * 2, y * 2, (x + y) % 256], axis=-1).astype(np.uint8)
    picture = tmp_path / "gradient.png"
    Image.fromarray(rgb).save(picture)
    labels = tmp_path / "labels.txt"
    labels.write_text("".join(f"label_{i}\n" for i in range(1001)))

    model = str(models / "coral_mobilenet_v1_0.25_128_quant.tflite")
    lines = label_image("--model", model, "--image", str(picture), "--labels", str(labels))
    assert len(lines) == 6 and lines[-1].startswith("time: ")
    scores = []
    for line in lines[:5]:
        score, rest = line.split(": ", 1)
        index, name = rest.split(" ", 1)
        assert name == f"label_{index}"
        scores.append(float(score))
    assert scores == sorted(scores, reverse=True) and 0 <= scores[-1] <= scores[0] <= 1

    # Without labels the same classes are printed by index.
    plain = label_image("--model", model, "--image", str(picture), "--threads", "2")
    indices = [line.split(": ", 1)[1].split(" ", 1)[0] for line in lines[:5]]
    assert [line.split(": ", 1)[1] for line in plain[:5]] == [f"{i} class {i}" for i in indices]
    # A float model with a one-channel picture: the example's float path.
    grey = tmp_path / "grey.png"
    Image.fromarray(rgb[:, :, 0]).save(grey)
    float_model = str(models / "mlperf_ic_resnet8_float.tflite")
    assert len(label_image("--model", float_model, "--image", str(grey), "--top", "3")) == 4


@pytest.mark.parametrize(
    "name", ["coral_mobilenet_v1_0.25_128_quant/cat", "coral_tf2_mobilenet_v2_1.0_224_ptq/cat"]
)
def test_real_picture_top1_matches_golden(
    models: pathlib.Path, tmp_path: pathlib.Path, name: str
) -> None:
    case = next((c for c in corpus_cases() if c["name"] == name), None)
    if case is None:
        pytest.skip(f"no corpus case {name}")
    pixels = np.load(models / case["inputs"][0])[0]  # the case's picture, at the model's size
    picture = tmp_path / "cat.png"
    Image.fromarray(pixels).save(picture)
    golden = np.load(models / case["outputs"][0]).reshape(-1)
    lines = label_image("--model", str(models / case["model"]), "--image", str(picture))
    top1 = int(lines[0].split(": ", 1)[1].split(" ", 1)[0])
    assert golden[top1] == golden.max()
