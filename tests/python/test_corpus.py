"""The shared golden corpus through octet.Interpreter: every case of the groups Octet
claims, compared as tests/conformance does (integers exactly, floats within the case's
atol + rtol * |want|), plus the malformed models as Python exceptions."""

import pathlib
from typing import Any, Dict, List

import numpy as np
import pytest

import octet
from conftest import corpus_cases

GROUPS = ("float", "int8", "uint8", "int16", "hybrid")
CASES = [c for c in corpus_cases() if c["group"] in GROUPS]
ERROR_CASES = [c for c in corpus_cases() if c["group"] == "errors"]


def run_case(models: pathlib.Path, case: Dict[str, Any], **kwargs: Any) -> List[np.ndarray]:
    """Runs one manifest case; returns the outputs in model order."""
    interpreter = octet.Interpreter(model_path=str(models / case["model"]), **kwargs)
    inputs = [np.load(models / path) for path in case["inputs"]]
    details = interpreter.get_input_details()
    assert len(details) == len(inputs)
    for detail, value in zip(details, inputs):
        if tuple(detail["shape"]) != value.shape:
            interpreter.resize_tensor_input(detail["index"], value.shape)
    interpreter.allocate_tensors()
    for detail, value in zip(details, inputs):
        interpreter.set_tensor(detail["index"], value)
    interpreter.invoke()
    return [interpreter.get_tensor(d["index"]) for d in interpreter.get_output_details()]


def check_output(got: np.ndarray, want: np.ndarray, case: Dict[str, Any]) -> None:
    assert got.dtype == want.dtype
    assert got.size == want.size
    got, want = got.reshape(-1), want.reshape(-1)
    if want.dtype.kind == "f":
        atol, rtol = case.get("atol", 1e-5), case.get("rtol", 1e-5)
        g, w = got.astype(np.float64), want.astype(np.float64)
        assert np.array_equal(np.isnan(g), np.isnan(w))
        ok = np.isnan(w) | (np.abs(g - w) <= atol + rtol * np.abs(w))
        assert ok.all(), f"float mismatch at {np.flatnonzero(~ok)[:5]}"
    else:
        allowed = case.get("max_abs_diff", 0)
        diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
        assert diff.max(initial=0) <= allowed, f"{int((diff > allowed).sum())} values differ"


@pytest.mark.parametrize("case", CASES or [None], ids=[c["name"] for c in CASES] or ["corpus"])
def test_golden(models: pathlib.Path, case: Any) -> None:
    if case is None:
        pytest.skip("the corpus manifest has no cases")
    outputs = run_case(models, case)
    assert len(outputs) == len(case["outputs"])
    for got, path in zip(outputs, case["outputs"]):
        check_output(got, np.load(models / path), case)


@pytest.mark.parametrize(
    "case", ERROR_CASES or [None], ids=[c["name"] for c in ERROR_CASES] or ["corpus"]
)
def test_malformed_models_raise(models: pathlib.Path, case: Any) -> None:
    if case is None:
        pytest.skip("the corpus manifest has no error cases")
    path = models / case["model"]
    with pytest.raises((ValueError, RuntimeError)) as raised:
        interpreter = octet.Interpreter(model_path=str(path))
        interpreter.allocate_tensors()
        interpreter.invoke()
    assert str(raised.value).strip(), "the exception must carry Octet's message"
    # The same bytes given as model_content fail the same way.
    with pytest.raises((ValueError, RuntimeError)):
        interpreter = octet.Interpreter(model_content=path.read_bytes())
        interpreter.allocate_tensors()
        interpreter.invoke()


def test_unknown_custom_op_is_named(models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(
        model_path=str(models / "coral_invalid_model_invoking_error.tflite")
    )
    with pytest.raises(RuntimeError, match="fake-op-double"):
        interpreter.allocate_tensors()


def first_case(model: str) -> Dict[str, Any]:
    for case in CASES:
        if case["model"] == model:
            return case
    pytest.skip(f"no corpus case for {model}")
    raise AssertionError  # unreachable


@pytest.mark.parametrize(
    "model", ["mlperf_ic_resnet8_int8.tflite", "coral_mobilenet_v1_0.25_128_quant.tflite"]
)
def test_reference_resolver_matches_builtin(models: pathlib.Path, model: str) -> None:
    case = first_case(model)
    builtin = run_case(models, case, experimental_op_resolver_type=octet.OpResolverType.BUILTIN)
    reference = run_case(
        models, case, experimental_op_resolver_type=octet.OpResolverType.BUILTIN_REF
    )
    for got, want in zip(reference, builtin):
        np.testing.assert_array_equal(got, want)
    interpreter = octet.Interpreter(
        model_path=str(models / model),
        experimental_op_resolver_type=octet.OpResolverType.BUILTIN_REF,
    )
    interpreter.allocate_tensors()
    assert set(interpreter._get_op_kernels()) == {"reference"}


@pytest.mark.parametrize("threads", [None, -1, 0, 1, 2])
def test_num_threads_give_the_same_bytes(models: pathlib.Path, threads: Any) -> None:
    case = first_case("coral_tf2_mobilenet_v2_1.0_224_ptq.tflite")
    want = np.load(models / case["outputs"][0])
    got = run_case(models, case, num_threads=threads)[0]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("bad", [1.5, "2", -2])
def test_bad_num_threads(models: pathlib.Path, bad: Any) -> None:
    with pytest.raises(ValueError, match="num_threads"):
        octet.Interpreter(model_path=str(models / "tflm_simple_add.tflite"), num_threads=bad)


def test_xnnpack_delegate(models: pathlib.Path) -> None:
    if not octet.xnnpack_available():
        with pytest.raises(ValueError, match="XNNPACK"):
            octet.load_delegate("xnnpack")
        pytest.skip("this build has no XNNPACK delegate")
    case = first_case("mlperf_ic_resnet8_float.tflite")
    delegate = octet.load_delegate("xnnpack", {"num_threads": 2})
    outputs = run_case(models, case, experimental_delegates=[delegate])
    check_output(outputs[0], np.load(models / case["outputs"][0]), case)
    interpreter = octet.Interpreter(
        model_path=str(models / case["model"]), experimental_delegates=[delegate]
    )
    assert "DELEGATE" in [op["op_name"] for op in interpreter._get_ops_details()]


def test_unknown_delegates_are_refused() -> None:
    with pytest.raises(ValueError, match="Failed to load delegate from libedgetpu.so.1"):
        octet.load_delegate("libedgetpu.so.1")
    with pytest.raises(ValueError, match="unknown option"):
        octet.load_delegate("xnnpack", {"cache_dir": "/tmp"})
