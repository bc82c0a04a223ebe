"""Fixtures of the Python module's tests: the shared corpus and the models built in code."""

import json
import os
import pathlib
import subprocess
from typing import Any, Dict, List

import pytest

REPO = pathlib.Path(os.environ.get("OCTET_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


def corpus_dir() -> pathlib.Path:
    """$OCTET_MODELS, or ../shared/models next to the repository."""
    return pathlib.Path(os.environ.get("OCTET_MODELS", REPO.parent / "shared" / "models"))


def corpus_cases() -> List[Dict[str, Any]]:
    """The manifest's cases (empty when the corpus is absent)."""
    manifest = corpus_dir() / "manifest.json"
    if not manifest.is_file():
        return []
    with open(manifest) as f:
        return json.load(f)["cases"]


@pytest.fixture(scope="session")
def models() -> pathlib.Path:
    """The shared corpus directory; skips the test when it is absent."""
    directory = corpus_dir()
    if not (directory / "manifest.json").is_file():
        pytest.skip(f"no conformance corpus at {directory} (set OCTET_MODELS)")
    return directory


@pytest.fixture(scope="session")
def built_models(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """Models written by octet_python_test_models (tests/python/make_test_models.cc)."""
    maker = os.environ.get("OCTET_TEST_MODEL_MAKER")
    if not maker or not os.path.exists(maker):
        pytest.skip("OCTET_TEST_MODEL_MAKER is not set (run the tests through ctest)")
    directory = tmp_path_factory.mktemp("built_models")
    subprocess.run([maker, str(directory)], check=True)
    return directory
