#include "tensor_convert.h"

#include <cstring>
#include <string>
#include <vector>

namespace octet_python {
namespace {

std::string ShapeText(const TfLiteIntArray* dims) {
  std::string text = "[";
  for (int i = 0; dims != nullptr && i < dims->size; ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(dims->data[i]);
  }
  return text + "]";
}

// Number of elements, or -1 when a dimension is negative (not yet known).
int64_t ElementCount(const TfLiteIntArray* dims) {
  int64_t count = 1;
  for (int i = 0; i < dims->size; ++i) {
    if (dims->data[i] < 0) return -1;
    count *= dims->data[i];
  }
  return count;
}

std::vector<py::ssize_t> Shape(const TfLiteIntArray* dims) {
  return std::vector<py::ssize_t>(dims->data, dims->data + dims->size);
}

py::dtype DtypeOrThrow(const TfLiteTensor& tensor) {
  py::dtype dtype;
  if (!NumpyDtypeFor(tensor.type, &dtype)) {
    throw py::value_error(std::string("Tensor of type ") + TfLiteTypeGetName(tensor.type) +
                          " has no NumPy equivalent; Octet's Python module cannot read it.");
  }
  return dtype;
}

// The checks tflite_runtime makes before handing out a tensor's data.
void CheckReadable(const TfLiteTensor& tensor) {
  if (tensor.dims == nullptr) throw py::value_error("Tensor with no shape found.");
  if (tensor.bytes == 0 && tensor.data.raw != nullptr) {
    throw py::value_error("Invalid tensor size.");
  }
  if (tensor.data.raw == nullptr && tensor.bytes != 0) {
    throw py::value_error("Tensor data is null. Run allocate_tensors() first");
  }
}

bool IsConstant(const TfLiteTensor& tensor) {
  return tensor.allocation_type == kTfLiteMmapRo || tensor.allocation_type == kTfLitePersistentRo;
}

// A 0-d array becomes a NumPy scalar, as PyArray_Return does for tflite_runtime.
py::object ScalarIfZeroDim(py::array array) {
  if (array.ndim() == 0) return array[py::tuple()];
  return std::move(array);
}

}  // namespace

bool NumpyDtypeFor(TfLiteType type, py::dtype* dtype) {
  const char* name = nullptr;
  switch (type) {
    case kTfLiteFloat32:
      name = "float32";
      break;
    case kTfLiteFloat16:
      name = "float16";
      break;
    case kTfLiteFloat64:
      name = "float64";
      break;
    case kTfLiteInt8:
      name = "int8";
      break;
    case kTfLiteInt16:
      name = "int16";
      break;
    case kTfLiteInt32:
      name = "int32";
      break;
    case kTfLiteInt64:
      name = "int64";
      break;
    case kTfLiteUInt8:
      name = "uint8";
      break;
    case kTfLiteUInt16:
      name = "uint16";
      break;
    case kTfLiteUInt32:
      name = "uint32";
      break;
    case kTfLiteUInt64:
      name = "uint64";
      break;
    case kTfLiteBool:
      name = "bool";
      break;
    case kTfLiteComplex64:
      name = "complex64";
      break;
    case kTfLiteComplex128:
      name = "complex128";
      break;
    default:
      return false;
  }
  *dtype = py::dtype(name);
  return true;
}

TfLiteType TfLiteTypeOfDtype(const py::dtype& dtype) {
  const py::ssize_t size = dtype.itemsize();
  switch (dtype.kind()) {
    case 'f':
      return size == 2   ? kTfLiteFloat16
             : size == 4 ? kTfLiteFloat32
             : size == 8 ? kTfLiteFloat64
                         : kTfLiteNoType;
    case 'i':
      return size == 1   ? kTfLiteInt8
             : size == 2 ? kTfLiteInt16
             : size == 4 ? kTfLiteInt32
             : size == 8 ? kTfLiteInt64
                         : kTfLiteNoType;
    case 'u':
      return size == 1   ? kTfLiteUInt8
             : size == 2 ? kTfLiteUInt16
             : size == 4 ? kTfLiteUInt32
             : size == 8 ? kTfLiteUInt64
                         : kTfLiteNoType;
    case 'b':
      return kTfLiteBool;
    case 'c':
      return size == 8 ? kTfLiteComplex64 : size == 16 ? kTfLiteComplex128 : kTfLiteNoType;
    case 'O':
    case 'S':
    case 'U':
      return kTfLiteString;
    default:
      return kTfLiteNoType;
  }
}

py::array_t<int32_t> Int32Array(const TfLiteIntArray* array) {
  const py::ssize_t size = array != nullptr ? array->size : 0;
  py::array_t<int32_t> result(size);
  if (size > 0) std::memcpy(result.mutable_data(), array->data, sizeof(int32_t) * size);
  return result;
}

py::dict TensorDetails(const TfLiteTensor& tensor, int index) {
  if (tensor.type == kTfLiteNoType) throw py::value_error("Tensor with no type found.");
  if (tensor.dims == nullptr) throw py::value_error("Tensor with no shape found.");
  const py::dtype dtype = DtypeOrThrow(tensor);

  py::array_t<float> scales(0);
  py::array_t<int32_t> zero_points(0);
  int quantized_dimension = 0;
  if (tensor.quantization.type == kTfLiteAffineQuantization &&
      tensor.quantization.params != nullptr) {
    const auto* affine = static_cast<const TfLiteAffineQuantization*>(tensor.quantization.params);
    if (affine->scale != nullptr) {
      scales = py::array_t<float>(affine->scale->size);
      std::memcpy(scales.mutable_data(), affine->scale->data, sizeof(float) * affine->scale->size);
    }
    zero_points = Int32Array(affine->zero_point);
    quantized_dimension = affine->quantized_dimension;
  }
  py::dict quantization_parameters;
  quantization_parameters["scales"] = scales;
  quantization_parameters["zero_points"] = zero_points;
  quantization_parameters["quantized_dimension"] = quantized_dimension;

  const TfLiteIntArray* signature =
      tensor.dims_signature != nullptr && tensor.dims_signature->size > 0 ? tensor.dims_signature
                                                                          : tensor.dims;
  py::dict details;
  details["name"] = tensor.name != nullptr ? tensor.name : "";
  details["index"] = index;
  details["shape"] = Int32Array(tensor.dims);
  details["shape_signature"] = Int32Array(signature);
  details["dtype"] = dtype.attr("type");
  details["quantization"] = py::make_tuple(tensor.params.scale, tensor.params.zero_point);
  details["quantization_parameters"] = quantization_parameters;
  // Octet's InterpreterBuilder rejects sparse tensors, so every tensor here is dense.
  details["sparsity_parameters"] = py::dict();
  return details;
}

py::object CopyTensorToNumpy(const TfLiteTensor& tensor) {
  CheckReadable(tensor);
  const py::dtype dtype = DtypeOrThrow(tensor);
  const int64_t count = ElementCount(tensor.dims);
  if (count < 0 || static_cast<size_t>(count) * dtype.itemsize() != tensor.bytes) {
    throw py::value_error("Tensor shape " + ShapeText(tensor.dims) + " does not match its " +
                          std::to_string(tensor.bytes) + " bytes.");
  }
  py::array result(dtype, Shape(tensor.dims));
  if (tensor.bytes > 0) std::memcpy(result.mutable_data(), tensor.data.raw, tensor.bytes);
  return ScalarIfZeroDim(std::move(result));
}

py::object ViewOfTensor(const TfLiteTensor& tensor, py::object base) {
  CheckReadable(tensor);
  const py::dtype dtype = DtypeOrThrow(tensor);
  const int64_t count = ElementCount(tensor.dims);
  if (count < 0 || static_cast<size_t>(count) * dtype.itemsize() != tensor.bytes) {
    throw py::value_error("Tensor shape " + ShapeText(tensor.dims) + " does not match its " +
                          std::to_string(tensor.bytes) + " bytes.");
  }
  if (tensor.data.raw == nullptr) {
    // An empty tensor has no memory to share: an empty array is the same thing.
    return py::array(dtype, Shape(tensor.dims));
  }
  std::vector<py::ssize_t> strides(tensor.dims->size);
  py::ssize_t stride = dtype.itemsize();
  for (int i = tensor.dims->size - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= tensor.dims->data[i];
  }
  py::array view(dtype, Shape(tensor.dims), strides, tensor.data.raw, base);
  // A constant may live in the read-only mapping of the model file: never writable.
  if (IsConstant(tensor)) view.attr("setflags")(py::arg("write") = false);
  return ScalarIfZeroDim(std::move(view));
}

void CopyNumpyToTensor(py::handle value, TfLiteTensor* tensor, int index) {
  py::array array = py::array::ensure(value, py::array::c_style);
  if (!array) {
    PyErr_Clear();
    throw py::value_error("Failed to convert value into readable tensor.");
  }
  if (!array.dtype().attr("isnative").cast<bool>()) {
    // Big-endian data: the same values in this machine's byte order.
    array = py::array::ensure(array.attr("astype")(array.dtype().attr("newbyteorder")("=")),
                              py::array::c_style);
  }
  const TfLiteType given = TfLiteTypeOfDtype(array.dtype());
  const char* name = tensor->name != nullptr ? tensor->name : "";
  if (given != tensor->type) {
    throw py::value_error(std::string("Cannot set tensor: Got value of type ") +
                          TfLiteTypeGetName(given) + " but expected type " +
                          TfLiteTypeGetName(tensor->type) + " for input " + std::to_string(index) +
                          ", name: " + name + " ");
  }
  if (tensor->type == kTfLiteString) {
    throw py::value_error("Cannot set tensor: string tensors are not supported by Octet.");
  }
  if (tensor->dims == nullptr || array.ndim() != tensor->dims->size) {
    throw py::value_error("Cannot set tensor: Dimension mismatch. Got " +
                          std::to_string(array.ndim()) + " but expected " +
                          std::to_string(tensor->dims ? tensor->dims->size : 0) + " for input " +
                          std::to_string(index) + ".");
  }
  for (int d = 0; d < tensor->dims->size; ++d) {
    if (array.shape(d) != tensor->dims->data[d]) {
      throw py::value_error("Cannot set tensor: Dimension mismatch. Got " +
                            std::to_string(array.shape(d)) + " but expected " +
                            std::to_string(tensor->dims->data[d]) + " for dimension " +
                            std::to_string(d) + " of input " + std::to_string(index) + ".");
    }
  }
  if (IsConstant(*tensor)) {
    throw py::value_error("Cannot set tensor: tensor " + std::to_string(index) + " ('" + name +
                          "') is a constant of the model.");
  }
  if (tensor->data.raw == nullptr && tensor->bytes != 0) {
    throw py::value_error(
        "Cannot set tensor: Tensor is unallocated. Try calling allocate_tensors() first");
  }
  const size_t size = static_cast<size_t>(array.nbytes());
  if (size != tensor->bytes) {
    throw py::value_error("numpy array had " + std::to_string(size) + " bytes but expected " +
                          std::to_string(tensor->bytes) + " bytes.");
  }
  if (size > 0) std::memcpy(tensor->data.raw, array.data(), size);
}

}  // namespace octet_python
