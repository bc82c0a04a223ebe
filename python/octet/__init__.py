"""Octet: a TensorFlow Lite inference engine, from Python.

``octet.Interpreter`` has the API of ``tflite_runtime.interpreter.Interpreter``::

    import numpy as np
    import octet

    interpreter = octet.Interpreter(model_path="model.tflite", num_threads=2)
    interpreter.allocate_tensors()
    inp = interpreter.get_input_details()[0]
    interpreter.set_tensor(inp["index"], np.zeros(inp["shape"], inp["dtype"]))
    interpreter.invoke()
    out = interpreter.get_tensor(interpreter.get_output_details()[0]["index"])

The ``tflite_runtime`` package installed alongside re-exports these names, so scripts
that import ``tflite_runtime.interpreter`` run on Octet unchanged.
"""

from ._octet import active_kernel_path, supported_kernel_paths, xnnpack_available
from .interpreter import Delegate, Interpreter, OpResolverType, SignatureRunner, load_delegate

__version__ = "0.1.0"

__all__ = [
    "Delegate",
    "Interpreter",
    "OpResolverType",
    "SignatureRunner",
    "active_kernel_path",
    "load_delegate",
    "supported_kernel_paths",
    "xnnpack_available",
]
