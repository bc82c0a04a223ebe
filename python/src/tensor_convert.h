// Conversions between Octet tensors and NumPy: element types, the details dictionaries of
// tflite_runtime's Interpreter, copies in and out, and zero-copy views.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "tensorflow/lite/c/common.h"

namespace octet_python {

namespace py = pybind11;

// The NumPy dtype holding `type`'s elements; false for types NumPy has no equivalent of
// (string, resource, variant, int4, bfloat16).
bool NumpyDtypeFor(TfLiteType type, py::dtype* dtype);

// The TfLiteType a NumPy dtype corresponds to (kTfLiteNoType when there is none).
TfLiteType TfLiteTypeOfDtype(const py::dtype& dtype);

// A 1-D int32 NumPy array with the elements of `array` (empty for null).
py::array_t<int32_t> Int32Array(const TfLiteIntArray* array);

// tflite_runtime's tensor details: name, index, shape, shape_signature, dtype, quantization,
// quantization_parameters, sparsity_parameters. Throws ValueError for a tensor without a
// type or shape, or of a type NumPy cannot hold.
py::dict TensorDetails(const TfLiteTensor& tensor, int index);

// A copy of the tensor's elements (a NumPy scalar for a 0-d tensor). Throws ValueError when
// the tensor has no data yet or its type has no NumPy equivalent.
py::object CopyTensorToNumpy(const TfLiteTensor& tensor);

// A NumPy array sharing the tensor's memory; `base` is kept alive by the array.
py::object ViewOfTensor(const TfLiteTensor& tensor, py::object base);

// Copies `value` (anything NumPy turns into an array) into the tensor after checking that
// its dtype and shape are the tensor's. Throws ValueError with tflite_runtime's messages.
void CopyNumpyToTensor(py::handle value, TfLiteTensor* tensor, int index);

}  // namespace octet_python
