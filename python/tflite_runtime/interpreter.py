"""``tflite_runtime.interpreter`` on Octet: the same names, implemented by ``octet``."""

from octet.interpreter import Delegate, Interpreter, OpResolverType, SignatureRunner, load_delegate

__all__ = ["Delegate", "Interpreter", "OpResolverType", "SignatureRunner", "load_delegate"]
