"""octet.Interpreter: runs .tflite models with Octet through tflite_runtime's Python API.

The classes here mirror ``tflite_runtime.interpreter`` (and ``ai_edge_litert.interpreter``):
the same constructor arguments, methods, details dictionaries and exception types, so
scripts written for TFLite run unchanged. The work is done by the native module
``octet._octet`` (python/src/), which links Octet statically.
"""

from __future__ import annotations

import enum
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from . import _octet

__all__ = [
    "Delegate",
    "Interpreter",
    "OpResolverType",
    "SignatureRunner",
    "load_delegate",
]

TensorDetails = Dict[str, Any]

_UNSAFE_VIEW_MESSAGE = (
    "There is at least 1 reference to internal data in the interpreter in the form of a "
    "numpy array or slice. Be sure to only hold the function returned from tensor() if you "
    "are using raw data access."
)


@enum.unique
class OpResolverType(enum.Enum):
    """Which kernels the interpreter resolves ops to (tflite_runtime's enum).

    AUTO and BUILTIN use Octet's builtin resolver (optimized kernels where Octet has
    them); BUILTIN_REF pins every op to its reference kernel (Octet's
    BuiltinRefOpResolver); BUILTIN_WITHOUT_DEFAULT_DELEGATES is BUILTIN, since Octet
    applies no delegate by default.
    """

    AUTO = 0
    BUILTIN = 1
    BUILTIN_REF = 2
    BUILTIN_WITHOUT_DEFAULT_DELEGATES = 3


_RESOLVER_IDS = {
    OpResolverType.AUTO: _octet.RESOLVER_BUILTIN,
    OpResolverType.BUILTIN: _octet.RESOLVER_BUILTIN,
    OpResolverType.BUILTIN_REF: _octet.RESOLVER_BUILTIN_REF,
    OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES: (
        _octet.RESOLVER_BUILTIN_WITHOUT_DEFAULT_DELEGATES
    ),
}

_XNNPACK_NAMES = ("xnnpack", "octet:xnnpack")


class Delegate:
    """A delegate Octet can apply to an interpreter (made by :func:`load_delegate`).

    Octet ships one: its XNNPACK delegate (when the build found libxnnpack-dev).
    """

    def __init__(self, library: str, options: Optional[Mapping[str, Any]] = None) -> None:
        options = dict(options or {})
        name = os.path.basename(str(library)).lower()
        if name not in _XNNPACK_NAMES:
            raise ValueError(
                f"Octet cannot load the delegate library {library!r}: external delegate "
                "libraries (tflite_plugin_create_delegate) are not supported; the delegate "
                "Octet provides is 'xnnpack' (load_delegate('xnnpack', {'num_threads': N}))"
            )
        unknown = sorted(set(options) - {"num_threads"})
        if unknown:
            raise ValueError(
                f"unknown option(s) {', '.join(map(str, unknown))} for the XNNPACK delegate "
                "(it takes 'num_threads')"
            )
        try:
            num_threads = int(options.get("num_threads", 1))
        except (TypeError, ValueError):
            raise ValueError("the XNNPACK delegate's num_threads must be an integer") from None
        self._name = "xnnpack"
        self._native = _octet.NativeDelegate.create_xnnpack(num_threads)

    def __repr__(self) -> str:
        return f"<octet.Delegate {self._name}>"


def load_delegate(library: str, options: Optional[Mapping[str, Any]] = None) -> Delegate:
    """Returns the delegate named ``library`` (tflite_runtime's ``load_delegate``).

    ``library`` is ``'xnnpack'`` for Octet's XNNPACK delegate; ``options`` may set
    ``num_threads``. Raises ValueError, as TFLite does, when the delegate cannot be loaded.
    """
    try:
        return Delegate(library, options)
    except ValueError as error:
        raise ValueError(f"Failed to load delegate from {library}\n{error}") from None


class SignatureRunner:
    """Runs one SignatureDef of a model: ``runner(**inputs) -> {output_name: array}``.

    Made by :meth:`Interpreter.get_signature_runner`. Inputs are resized to the given
    arrays' shapes, the signature's subgraph is allocated and invoked, and copies of the
    outputs are returned.
    """

    def __init__(self, interpreter: "Interpreter", signature_key: str) -> None:
        if interpreter is None:
            raise ValueError("None interpreter provided.")
        if not signature_key:
            raise ValueError("None signature_key provided.")
        definitions = interpreter._get_full_signature_list()
        if signature_key not in definitions:
            raise ValueError("Invalid signature_key provided.")
        self._interpreter = interpreter
        self._native = interpreter._native
        self._signature_key = signature_key
        self._inputs: Dict[str, int] = definitions[signature_key]["inputs"]
        self._outputs: Dict[str, int] = definitions[signature_key]["outputs"]
        self._subgraph_index = self._native.signature_subgraph_index(signature_key)

    def __call__(self, **kwargs: Any) -> Dict[str, np.ndarray]:
        if len(kwargs) != len(self._inputs):
            raise ValueError(
                "Invalid number of inputs provided for running a SignatureDef, "
                f"expected {len(self._inputs)} vs provided {len(kwargs)}"
            )
        for name in kwargs:
            if name not in self._inputs:
                raise ValueError(f"Invalid Input name ({name}) for SignatureDef")
        # Resizing and allocating may move tensor memory: no tensor() view may be alive.
        self._interpreter._ensure_safe()
        values = {name: np.asarray(value) for name, value in kwargs.items()}
        for name, value in values.items():
            self._native.resize_input_tensor(
                self._inputs[name], [int(d) for d in value.shape], False, self._subgraph_index
            )
        self._native.allocate_tensors(self._subgraph_index)
        for name, value in values.items():
            self._native.set_tensor(self._inputs[name], value, self._subgraph_index)
        self._native.invoke(self._subgraph_index)
        return {
            name: self._native.get_tensor(index, self._subgraph_index)
            for name, index in self._outputs.items()
        }

    def get_input_details(self) -> Dict[str, TensorDetails]:
        """Details (as Interpreter.get_input_details gives them) of each input, by name."""
        return {
            name: self._interpreter._get_tensor_details(index, self._subgraph_index)
            for name, index in self._inputs.items()
        }

    def get_output_details(self) -> Dict[str, TensorDetails]:
        """Details of each output, by name."""
        return {
            name: self._interpreter._get_tensor_details(index, self._subgraph_index)
            for name, index in self._outputs.items()
        }


class Interpreter:
    """Interpreter for TensorFlow Lite models, running on Octet.

    Args:
      model_path: path of a .tflite file (mapped, verified before use).
      model_content: the model's bytes (any bytes-like object; copied).
      experimental_delegates: delegates from :func:`load_delegate`, applied in order.
      num_threads: threads the kernels may use (None: 1; -1: Octet's default; 0 means 1).
      experimental_op_resolver_type: an :class:`OpResolverType`.
      experimental_preserve_all_tensors: must be False: Octet reuses activation memory.
      max_memory_bytes: Octet's memory limit for this interpreter (tensor arenas, packed
        weights, heap tensors); a model that needs more fails allocate_tensors with a
        RuntimeError naming the request. None: $OCTET_MAX_MEMORY or half the physical memory.

    Raises:
      ValueError: when the model cannot be loaded or built (with Octet's message).
    """

    def __init__(
        self,
        model_path: Optional[Union[str, "os.PathLike[str]"]] = None,
        model_content: Optional[Union[bytes, bytearray, memoryview]] = None,
        experimental_delegates: Optional[Sequence[Delegate]] = None,
        num_threads: Optional[int] = None,
        experimental_op_resolver_type: OpResolverType = OpResolverType.AUTO,
        experimental_preserve_all_tensors: bool = False,
        max_memory_bytes: Optional[int] = None,
    ) -> None:
        self._native: Any = None
        self._delegates: List[Delegate] = []
        if experimental_preserve_all_tensors:
            raise ValueError(
                "experimental_preserve_all_tensors is not supported by Octet: intermediate "
                "tensors share arena memory"
            )
        resolver_id = _RESOLVER_IDS.get(experimental_op_resolver_type)
        if resolver_id is None:
            raise ValueError(
                f"Unrecognized passed in op resolver type: {experimental_op_resolver_type}"
            )
        threads = 1
        if num_threads is not None:
            if not isinstance(num_threads, int) or isinstance(num_threads, bool):
                raise ValueError("type of num_threads should be int")
            if num_threads < -1:
                raise ValueError("num_threads should be >= -1")
            threads = 1 if num_threads == 0 else num_threads
        if max_memory_bytes is not None and (
            not isinstance(max_memory_bytes, int)
            or isinstance(max_memory_bytes, bool)
            or not 0 <= max_memory_bytes < 2**64
        ):
            raise ValueError("max_memory_bytes should be an int in [0, 2**64)")

        if model_path is not None and model_content is None:
            self._native = _octet.NativeInterpreter.from_file(
                os.fspath(model_path), resolver_id, threads
            )
        elif model_content is not None and model_path is None:
            self._native = _octet.NativeInterpreter.from_buffer(model_content, resolver_id, threads)
        elif model_path is None and model_content is None:
            raise ValueError("`model_path` or `model_content` must be specified.")
        else:
            raise ValueError("Can't both provide `model_path` and `model_content`")
        if max_memory_bytes is not None:
            self._native.set_max_memory_bytes(max_memory_bytes)

        for delegate in experimental_delegates or []:
            if not isinstance(delegate, Delegate):
                raise ValueError(
                    f"experimental_delegates takes octet delegates from load_delegate(), "
                    f"not {type(delegate).__name__}"
                )
            self._native.modify_graph_with_delegate(delegate._native)
            self._delegates.append(delegate)
        self._signature_defs = self.get_signature_list()

    def memory_info(self) -> Dict[str, int]:
        """Octet's memory limit and what the interpreter holds now, in bytes."""
        return {
            "max_memory_bytes": self._native.max_memory_bytes(),
            "memory_used_bytes": self._native.memory_used_bytes(),
        }

    # --- memory safety of tensor() views -------------------------------------------------

    def _safe_to_run(self) -> bool:
        """True when no NumPy array from tensor() still points into the interpreter."""
        return self._native.live_views() == 0

    def _ensure_safe(self) -> None:
        """Raises RuntimeError if a tensor() view is alive (its memory could move)."""
        if not self._safe_to_run():
            raise RuntimeError(_UNSAFE_VIEW_MESSAGE)

    # --- running ---------------------------------------------------------------------------

    def allocate_tensors(self) -> None:
        """Plans and allocates every tensor; needed before invoke and after a resize."""
        self._ensure_safe()
        self._native.allocate_tensors()

    def invoke(self) -> None:
        """Runs the model (the GIL is released meanwhile).

        Raises:
          RuntimeError: with Octet's message, when a kernel or the interpreter fails.
        """
        self._ensure_safe()
        self._native.invoke()

    def resize_tensor_input(
        self, input_index: int, tensor_size: Sequence[int], strict: bool = False
    ) -> None:
        """Resizes input tensor ``input_index``; call allocate_tensors() afterwards.

        With ``strict``, only dimensions that are -1 in the shape signature may change.
        """
        self._ensure_safe()
        shape = np.array(tensor_size, dtype=np.int32)
        if shape.ndim != 1:
            raise ValueError(f"Shape should be 1D instead of {shape.ndim}.")
        self._native.resize_input_tensor(int(input_index), shape.tolist(), bool(strict))

    def reset_all_variables(self) -> None:
        """Sets every variable tensor (e.g. recurrent state) back to its initial value."""
        self._native.reset_variable_tensors()

    # --- tensors -------------------------------------------------------------------------

    def _get_tensor_details(self, tensor_index: int, subgraph_index: int) -> TensorDetails:
        return self._native.tensor_details(int(tensor_index), int(subgraph_index))

    def get_input_details(self) -> List[TensorDetails]:
        """Details (name, index, shape, shape_signature, dtype, quantization, ...) of inputs."""
        return [self._get_tensor_details(i, 0) for i in self._native.input_indices()]

    def get_output_details(self) -> List[TensorDetails]:
        """Details of the model's outputs, in the same form as get_input_details()."""
        return [self._get_tensor_details(i, 0) for i in self._native.output_indices()]

    def get_tensor_details(self, subgraph_index: int = 0) -> List[TensorDetails]:
        """Details of every tensor of a subgraph that has a type and a shape."""
        count = self._native.num_subgraphs()
        if subgraph_index < 0 or subgraph_index >= count:
            raise ValueError(
                f"subgraph_index is out of range: {subgraph_index} for the model, which has "
                f"{count} subgraphs."
            )
        details = []
        for index in range(self._native.num_tensors(subgraph_index)):
            try:
                details.append(self._get_tensor_details(index, subgraph_index))
            except ValueError:
                pass
        return details

    def num_subgraphs(self) -> int:
        """Number of subgraphs in the model."""
        return self._native.num_subgraphs()

    def set_tensor(self, tensor_index: int, value: Any) -> None:
        """Copies ``value`` into a tensor; its dtype and shape must be the tensor's.

        Raises:
          ValueError: for a wrong dtype or shape, an unallocated tensor or a constant.
        """
        self._native.set_tensor(int(tensor_index), value)

    def get_tensor(self, tensor_index: int, subgraph_index: int = 0) -> np.ndarray:
        """A copy of a tensor's value."""
        return self._native.get_tensor(int(tensor_index), int(subgraph_index))

    def tensor(self, tensor_index: int) -> Callable[[], np.ndarray]:
        """Returns a function giving a NumPy view (no copy) of the tensor's current memory.

        Hold the function, not the array: while an array from it is alive,
        allocate_tensors(), invoke() and resize_tensor_input() raise RuntimeError.
        """
        native = self._native
        index = int(tensor_index)
        return lambda: native.tensor_view(index, 0)

    # --- signatures and ops ----------------------------------------------------------------

    def _get_full_signature_list(self) -> Dict[str, Dict[str, Dict[str, int]]]:
        return self._native.signature_defs()

    def get_signature_list(self) -> Dict[str, Dict[str, List[str]]]:
        """``{key: {'inputs': [names], 'outputs': [names]}}`` for each SignatureDef."""
        return {
            key: {"inputs": list(value["inputs"]), "outputs": list(value["outputs"])}
            for key, value in self._native.signature_defs().items()
        }

    def get_signature_runner(self, signature_key: Optional[str] = None) -> SignatureRunner:
        """A callable running one SignatureDef (``None``: the only one the model has)."""
        if signature_key is None:
            if len(self._signature_defs) != 1:
                raise ValueError(
                    "SignatureDef signature_key is None and model has "
                    f"{len(self._signature_defs)} Signatures. None is only allowed when the "
                    "model has 1 SignatureDef"
                )
            signature_key = next(iter(self._signature_defs))
        return SignatureRunner(interpreter=self, signature_key=signature_key)

    def _get_op_details(self, op_index: int) -> Dict[str, Any]:
        inputs = self._native.node_inputs(op_index)
        outputs = self._native.node_outputs(op_index)
        return {
            "index": int(op_index),
            "op_name": self._native.node_name(op_index),
            "inputs": inputs,
            "outputs": outputs,
            "operand_types": [self._get_tensor_details(t, 0)["dtype"] for t in inputs if t != -1],
            "result_types": [self._get_tensor_details(t, 0)["dtype"] for t in outputs if t != -1],
        }

    def _get_ops_details(self) -> List[Dict[str, Any]]:
        """One dictionary per node: index, op_name, inputs, outputs and their dtypes."""
        return [self._get_op_details(i) for i in range(self._native.num_nodes())]

    def _get_op_kernels(self) -> List[str]:
        """Octet extension: the implementation each node runs (after allocate_tensors())."""
        return [self._native.node_kernel(i) for i in range(self._native.num_nodes())]

    def __del__(self) -> None:
        # The native interpreter first: it may run delegate kernels until it is gone.
        self._native = None
        self._delegates = []
