"""Compatibility package: ``tflite_runtime`` backed by Octet.

Scripts written for TFLite's ``tflite_runtime`` package (``from tflite_runtime.interpreter
import Interpreter``) run on Octet with this package installed instead of TFLite's.
"""

from octet import __version__

__all__ = ["__version__"]
