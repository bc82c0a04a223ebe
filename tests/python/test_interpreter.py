"""octet.Interpreter's API as tflite_runtime defines it: details, set/get, tensor() views
and their guard, resizing, variables, signatures, errors, and the tflite_runtime shim."""

import os
import pathlib
import subprocess
import sys
import threading

import numpy as np
import pytest

import octet

DETAIL_KEYS = {
    "name",
    "index",
    "shape",
    "shape_signature",
    "dtype",
    "quantization",
    "quantization_parameters",
    "sparsity_parameters",
}


def allocated(path: pathlib.Path, **kwargs) -> octet.Interpreter:
    interpreter = octet.Interpreter(model_path=str(path), **kwargs)
    interpreter.allocate_tensors()
    return interpreter


# --- details ---------------------------------------------------------------------------


def test_details_of_a_uint8_model(models: pathlib.Path) -> None:
    interpreter = allocated(models / "coral_mobilenet_v1_0.25_128_quant.tflite")
    (inp,) = interpreter.get_input_details()
    (out,) = interpreter.get_output_details()
    for detail in (inp, out):
        assert set(detail) == DETAIL_KEYS
        assert detail["dtype"] is np.uint8
        assert detail["shape"].dtype == np.int32 and detail["shape_signature"].dtype == np.int32
        assert detail["sparsity_parameters"] == {}
        params = detail["quantization_parameters"]
        assert set(params) == {"scales", "zero_points", "quantized_dimension"}
        assert params["scales"].dtype == np.float32 and params["zero_points"].dtype == np.int32
        scale, zero_point = detail["quantization"]
        assert isinstance(scale, float) and isinstance(zero_point, int)
        assert params["scales"].tolist() == [pytest.approx(scale)]
        assert params["zero_points"].tolist() == [zero_point]
    assert inp["shape"].tolist() == [1, 128, 128, 3]
    assert inp["quantization"] == (0.0078125, 128)
    assert out["shape"].tolist() == [1, 1001]


def test_tensor_details_have_per_axis_quantization(models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(
        model_path=str(models / "coral_tf2_mobilenet_v2_1.0_224_ptq.tflite")
    )
    details = interpreter.get_tensor_details()
    assert [d["index"] for d in details] == sorted(d["index"] for d in details)
    per_axis = [d for d in details if len(d["quantization_parameters"]["scales"]) > 1]
    assert per_axis, "the int8 MobileNet has per-channel weights"
    for detail in per_axis:
        params = detail["quantization_parameters"]
        assert detail["dtype"] in (np.int8, np.int32)  # weights and biases
        channels = detail["shape"][params["quantized_dimension"]]
        assert len(params["scales"]) == len(params["zero_points"]) == channels
    with pytest.raises(ValueError, match="subgraph_index is out of range"):
        interpreter.get_tensor_details(subgraph_index=1)


def test_float_model_details(models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(model_path=str(models / "mlperf_ic_resnet8_float.tflite"))
    (inp,) = interpreter.get_input_details()
    assert inp["dtype"] is np.float32
    assert inp["quantization"] == (0.0, 0)
    assert inp["quantization_parameters"]["scales"].size == 0
    ops = interpreter._get_ops_details()
    assert ops[0]["index"] == 0 and "CONV_2D" in {op["op_name"] for op in ops}
    for op in ops:
        assert set(op) == {"index", "op_name", "inputs", "outputs", "operand_types", "result_types"}
        assert all(t is np.float32 or t is np.int32 for t in op["operand_types"])


def test_int16_model(built_models: pathlib.Path) -> None:
    interpreter = allocated(built_models / "int16.tflite")
    (inp,) = interpreter.get_input_details()
    assert inp["dtype"] is np.int16 and inp["quantization"] == (0.5, 0)
    interpreter.set_tensor(inp["index"], np.array([[1, -2, 300, -400]], np.int16))
    interpreter.invoke()
    out = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    assert out.dtype == np.int16 and out.tolist() == [[2, -4, 600, -800]]


# --- set_tensor / get_tensor -----------------------------------------------------------


def test_set_tensor_errors(built_models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(model_path=str(built_models / "dynamic.tflite"))
    index = interpreter.get_input_details()[0]["index"]
    with pytest.raises(ValueError, match="unallocated"):
        interpreter.set_tensor(index, np.zeros((1, 4), np.float32))
    with pytest.raises(ValueError, match="allocate_tensors"):
        interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    interpreter.allocate_tensors()
    with pytest.raises(ValueError, match="Got value of type FLOAT64 but expected type FLOAT32"):
        interpreter.set_tensor(index, np.zeros((1, 4)))
    with pytest.raises(ValueError, match="Got value of type INT64"):
        interpreter.set_tensor(index, [[1, 2, 3, 4]])
    with pytest.raises(ValueError, match="Dimension mismatch. Got 1 but expected 2"):
        interpreter.set_tensor(index, np.zeros(4, np.float32))
    with pytest.raises(ValueError, match="Got 5 but expected 4 for dimension 1"):
        interpreter.set_tensor(index, np.zeros((1, 5), np.float32))
    with pytest.raises(ValueError, match="Invalid tensor index 99"):
        interpreter.set_tensor(99, np.zeros((1, 4), np.float32))
    with pytest.raises(ValueError, match="Invalid tensor index -1"):
        interpreter.get_tensor(-1)


def test_set_and_get_copy(built_models: pathlib.Path) -> None:
    interpreter = allocated(built_models / "dynamic.tflite")
    index = interpreter.get_input_details()[0]["index"]
    value = np.array([[1, 2, 3, 4]], np.float32)
    interpreter.set_tensor(index, value)
    value[0, 0] = 100  # set_tensor copied
    # Non-contiguous and big-endian inputs are accepted as their values.
    interpreter.set_tensor(index, np.arange(8, dtype=np.float32).reshape(2, 4)[:1, :])
    interpreter.invoke()
    got = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    assert got.tolist() == [[0, 2, 4, 6]]
    got[0, 0] = 50  # get_tensor returned a copy
    assert interpreter.get_tensor(interpreter.get_output_details()[0]["index"])[0, 0] == 0
    interpreter.set_tensor(index, np.array([[1, 2, 3, 4]], dtype=">f4"))
    interpreter.invoke()
    assert interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).tolist() == [
        [2, 4, 6, 8]
    ]


def test_constants_cannot_be_written(models: pathlib.Path) -> None:
    interpreter = allocated(models / "mlperf_ic_resnet8_int8.tflite")
    inputs = [d["index"] for d in interpreter.get_input_details()]
    weights = next(
        d
        for d in interpreter.get_tensor_details()
        if d["dtype"] is np.int8 and len(d["shape"]) == 4 and d["index"] not in inputs
    )
    value = interpreter.get_tensor(weights["index"])
    with pytest.raises(ValueError, match="constant"):
        interpreter.set_tensor(weights["index"], value)
    view = interpreter.tensor(weights["index"])()
    assert not view.flags.writeable
    np.testing.assert_array_equal(view, value)


# --- tensor() views ------------------------------------------------------------------------


def test_tensor_view_reads_and_writes(built_models: pathlib.Path) -> None:
    interpreter = allocated(built_models / "dynamic.tflite")
    inp = interpreter.tensor(interpreter.get_input_details()[0]["index"])
    out = interpreter.tensor(interpreter.get_output_details()[0]["index"])
    for k in range(3):
        inp().fill(k)
        interpreter.invoke()
        assert out().tolist() == [[2.0 * k] * 4]
    assert out().dtype == np.float32 and out().shape == (1, 4)


def test_live_view_blocks_reallocation(built_models: pathlib.Path) -> None:
    interpreter = allocated(built_models / "dynamic.tflite")
    index = interpreter.get_input_details()[0]["index"]
    view = interpreter.tensor(index)()
    for call in (
        interpreter.allocate_tensors,
        interpreter.invoke,
        lambda: interpreter.resize_tensor_input(index, [2, 4]),
    ):
        with pytest.raises(RuntimeError, match="reference to internal data"):
            call()
    part = view[:, 1:]  # a slice keeps the memory in use as well
    del view
    with pytest.raises(RuntimeError, match="reference to internal data"):
        interpreter.invoke()
    del part
    interpreter.resize_tensor_input(index, [2, 4])
    interpreter.allocate_tensors()
    interpreter.invoke()


def test_view_outlives_interpreter(built_models: pathlib.Path) -> None:
    interpreter = allocated(built_models / "dynamic.tflite")
    interpreter.set_tensor(0, np.full((1, 4), 7, np.float32))
    view = interpreter.tensor(0)()
    del interpreter  # the view keeps the native interpreter (and its memory) alive
    assert view.tolist() == [[7.0] * 4]


# --- resize, variables ---------------------------------------------------------------------


def test_resize_tensor_input(built_models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(model_path=str(built_models / "dynamic.tflite"))
    (inp,) = interpreter.get_input_details()
    assert inp["shape_signature"].tolist() == [-1, 4]
    interpreter.resize_tensor_input(inp["index"], [3, 4], strict=True)
    interpreter.allocate_tensors()
    assert interpreter.get_input_details()[0]["shape"].tolist() == [3, 4]
    value = np.arange(12, dtype=np.float32).reshape(3, 4)
    interpreter.set_tensor(inp["index"], value)
    interpreter.invoke()
    out = interpreter.get_output_details()[0]["index"]
    np.testing.assert_array_equal(interpreter.get_tensor(out), 2 * value)
    with pytest.raises(RuntimeError, match="fixed"):
        interpreter.resize_tensor_input(inp["index"], [3, 5], strict=True)
    interpreter.resize_tensor_input(inp["index"], np.array([2, 5]))  # not strict: allowed
    interpreter.allocate_tensors()
    assert interpreter.get_input_details()[0]["shape"].tolist() == [2, 5]
    with pytest.raises(ValueError, match="1D"):
        interpreter.resize_tensor_input(inp["index"], [[1, 4]])
    with pytest.raises(RuntimeError, match="not a graph input"):
        interpreter.resize_tensor_input(interpreter.get_output_details()[0]["index"], [1, 4])


def test_fixed_shape_model_resizes_like_tflite(models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(model_path=str(models / "mlperf_ic_resnet8_float.tflite"))
    index = interpreter.get_input_details()[0]["index"]
    # The shape signature is [-1, 32, 32, 3]: only the batch may change in a strict resize.
    with pytest.raises(RuntimeError, match="ResizeInputTensorStrict: dimension 1 is fixed"):
        interpreter.resize_tensor_input(index, [1, 16, 16, 3], strict=True)
    interpreter.resize_tensor_input(index, [2, 32, 32, 3], strict=True)
    interpreter.allocate_tensors()
    batch = np.random.default_rng(0).random((2, 32, 32, 3), dtype=np.float32)
    interpreter.set_tensor(index, batch)
    interpreter.invoke()
    out = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])
    single = allocated(models / "mlperf_ic_resnet8_float.tflite")
    for b in range(2):
        single.set_tensor(index, batch[b : b + 1])
        single.invoke()
        np.testing.assert_allclose(
            out[b], single.get_tensor(single.get_output_details()[0]["index"])[0], atol=1e-5
        )


def test_reset_all_variables(built_models: pathlib.Path) -> None:
    interpreter = allocated(built_models / "variable.tflite")
    state = next(d for d in interpreter.get_tensor_details() if d["name"] == "state")
    x = np.array([[1, 2, 3]], np.float32)
    interpreter.set_tensor(0, x)
    interpreter.set_tensor(state["index"], np.full((1, 3), 5, np.float32))
    interpreter.invoke()
    out = interpreter.get_output_details()[0]["index"]
    assert interpreter.get_tensor(out).tolist() == [[6, 7, 8]]
    interpreter.reset_all_variables()
    assert interpreter.get_tensor(state["index"]).tolist() == [[0, 0, 0]]
    interpreter.invoke()
    assert interpreter.get_tensor(out).tolist() == [[1, 2, 3]]


# --- signatures ------------------------------------------------------------------------------


def test_signature_runners(built_models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(model_path=str(built_models / "signatures.tflite"))
    assert interpreter.get_signature_list() == {
        "add": {"inputs": ["x", "y"], "outputs": ["sum"]},
        "mul": {"inputs": ["a", "b"], "outputs": ["product"]},
    }
    assert interpreter.num_subgraphs() == 2
    add = interpreter.get_signature_runner("add")
    result = add(x=np.array([[1, 2]], np.float32), y=np.array([[10, 20]], np.float32))
    assert list(result) == ["sum"] and result["sum"].tolist() == [[11, 22]]
    mul = interpreter.get_signature_runner("mul")
    a = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(mul(a=a, b=a)["product"], a * a)
    details = mul.get_input_details()
    assert set(details) == {"a", "b"}
    assert details["a"]["shape"].tolist() == [4, 3]
    assert details["a"]["shape_signature"].tolist() == [-1, 3]
    assert set(mul.get_output_details()["product"]) == DETAIL_KEYS
    with pytest.raises(ValueError, match="None is only allowed"):
        interpreter.get_signature_runner()
    with pytest.raises(ValueError, match="Invalid signature_key"):
        interpreter.get_signature_runner("div")
    with pytest.raises(ValueError, match="Invalid number of inputs"):
        add(x=np.zeros((1, 2), np.float32))
    with pytest.raises(ValueError, match=r"Invalid Input name \(z\)"):
        add(x=np.zeros((1, 2), np.float32), z=np.zeros((1, 2), np.float32))
    with pytest.raises(ValueError, match="Got value of type FLOAT64"):
        add(x=np.zeros((1, 2)), y=np.zeros((1, 2)))


def test_corpus_signature_runner_matches_golden(models: pathlib.Path) -> None:
    from conftest import corpus_cases

    case = next(c for c in corpus_cases() if c["name"] == "tflm_mnist_lstm_float/seed1")
    interpreter = octet.Interpreter(model_path=str(models / case["model"]))
    assert interpreter.get_signature_list() == {
        "serving_default": {"inputs": ["fixed_input"], "outputs": ["sequential"]}
    }
    runner = interpreter.get_signature_runner()  # None: the model's only signature
    result = runner(fixed_input=np.load(models / case["inputs"][0]))
    want = np.load(models / case["outputs"][0])
    np.testing.assert_allclose(result["sequential"], want, atol=case["atol"], rtol=case["rtol"])
    assert runner.get_output_details()["sequential"]["dtype"] is np.float32


def test_models_without_signatures(models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(model_path=str(models / "mlperf_ic_resnet8_int8.tflite"))
    assert interpreter.get_signature_list() == {}
    with pytest.raises(ValueError, match="model has 0 Signatures"):
        interpreter.get_signature_runner()


# --- construction and errors ------------------------------------------------------------------


def test_model_content(models: pathlib.Path) -> None:
    data = (models / "tflm_hello_world_float.tflite").read_bytes()
    for content in (data, bytearray(data), memoryview(data)):
        interpreter = octet.Interpreter(model_content=content)
        interpreter.allocate_tensors()
        interpreter.set_tensor(0, np.array([[0.5]], np.float32))
        interpreter.invoke()
        assert interpreter.get_tensor(interpreter.get_output_details()[0]["index"]).shape == (1, 1)
    with pytest.raises(ValueError, match="must be specified"):
        octet.Interpreter()
    with pytest.raises(ValueError, match="both provide"):
        octet.Interpreter(model_path="x.tflite", model_content=data)


def test_load_errors(tmp_path: pathlib.Path) -> None:
    missing = tmp_path / "missing.tflite"
    with pytest.raises(ValueError, match="missing.tflite"):
        octet.Interpreter(model_path=str(missing))
    with pytest.raises(ValueError) as raised:
        octet.Interpreter(model_content=b"certainly not a flatbuffer")
    assert str(raised.value)
    with pytest.raises(ValueError, match="op resolver"):
        octet.Interpreter(model_path=str(missing), experimental_op_resolver_type=7)
    with pytest.raises(ValueError, match="preserve_all_tensors"):
        octet.Interpreter(model_path=str(missing), experimental_preserve_all_tensors=True)


def test_invoke_before_allocate_raises(built_models: pathlib.Path) -> None:
    interpreter = octet.Interpreter(model_path=str(built_models / "dynamic.tflite"))
    interpreter.resize_tensor_input(0, [2, 4])
    with pytest.raises(RuntimeError) as raised:
        interpreter.invoke()
    assert str(raised.value)


def test_invoke_in_threads(models: pathlib.Path) -> None:
    path = models / "mlperf_ic_resnet8_int8.tflite"
    interpreters = [allocated(path) for _ in range(2)]
    results = [None, None]

    def run(k: int) -> None:
        for _ in range(20):
            interpreters[k].invoke()
        results[k] = interpreters[k].get_tensor(interpreters[k].get_output_details()[0]["index"])

    threads = [threading.Thread(target=run, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    np.testing.assert_array_equal(results[0], results[1])


def test_invoke_releases_the_gil(models: pathlib.Path) -> None:
    interpreter = allocated(models / "coral_tf2_mobilenet_v2_1.0_224_ptq.tflite")
    out = interpreter.get_output_details()[0]["index"]
    worker = threading.Thread(target=lambda: [interpreter.invoke() for _ in range(50)])
    seen_busy = False
    worker.start()
    # This thread runs while the other is inside invoke() only if the GIL was released; the
    # interpreter then refuses other calls instead of racing with the kernels.
    while worker.is_alive() and not seen_busy:
        try:
            interpreter.get_tensor(out)
        except RuntimeError as error:
            assert "another thread" in str(error)
            seen_busy = True
    worker.join()
    assert seen_busy
    interpreter.get_tensor(out)


# --- the tflite_runtime shim ----------------------------------------------------------------


def test_tflite_runtime_shim(models: pathlib.Path) -> None:
    from tflite_runtime.interpreter import Interpreter, OpResolverType, load_delegate

    assert Interpreter is octet.Interpreter and load_delegate is octet.load_delegate
    assert OpResolverType is octet.OpResolverType
    script = f"""
import numpy as np
from tflite_runtime.interpreter import Interpreter
model = {str(models / "tflm_hello_world_float.tflite")!r}
interpreter = Interpreter(model_path=model, num_threads=1)
interpreter.allocate_tensors()
inp = interpreter.get_input_details()[0]
interpreter.set_tensor(inp["index"], np.array([[1.0]], dtype=inp["dtype"]))
interpreter.invoke()
print(float(interpreter.get_tensor(interpreter.get_output_details()[0]["index"])[0, 0]))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=dict(os.environ)
    )
    assert done.returncode == 0, done.stderr
    assert abs(float(done.stdout) - np.sin(1.0)) < 0.2


def test_max_memory_bytes(models: pathlib.Path) -> None:
    path = models / "mlperf_ic_resnet8_int8.tflite"
    small = octet.Interpreter(model_path=str(path), max_memory_bytes=4096)
    assert small.memory_info()["max_memory_bytes"] == 4096
    with pytest.raises(RuntimeError, match="memory limit of 4.00 KiB"):
        small.allocate_tensors()
    roomy = allocated(path, max_memory_bytes=64 << 20)
    info = roomy.memory_info()
    assert 52224 <= info["memory_used_bytes"] <= 64 << 20  # resnet8's arena alone is 52224
    for bad in (-1, 1.5, True, 2**64):
        with pytest.raises(ValueError, match="max_memory_bytes"):
            octet.Interpreter(model_path=str(path), max_memory_bytes=bad)
