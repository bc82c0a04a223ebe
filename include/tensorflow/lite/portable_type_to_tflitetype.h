// typeToTfLiteType<T>(): the TfLiteType of a C++ element type (kTfLiteNoType if none).
#pragma once

#include <complex>
#include <cstdint>
#include <string>

#include "tensorflow/lite/c/common.h"

namespace tflite {

template <typename T>
constexpr TfLiteType typeToTfLiteType() {
  return kTfLiteNoType;
}

#define OCTET_MATCH_TYPE_AND_TFLITE_TYPE(CPP_TYPE, TFLITE_TYPE_ENUM) \
  template <>                                                        \
  constexpr TfLiteType typeToTfLiteType<CPP_TYPE>() {                \
    return TFLITE_TYPE_ENUM;                                         \
  }

OCTET_MATCH_TYPE_AND_TFLITE_TYPE(int32_t, kTfLiteInt32)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(uint32_t, kTfLiteUInt32)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(int16_t, kTfLiteInt16)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(uint16_t, kTfLiteUInt16)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(int64_t, kTfLiteInt64)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(uint64_t, kTfLiteUInt64)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(float, kTfLiteFloat32)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(unsigned char, kTfLiteUInt8)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(int8_t, kTfLiteInt8)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(bool, kTfLiteBool)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(std::complex<float>, kTfLiteComplex64)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(std::complex<double>, kTfLiteComplex128)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(std::string, kTfLiteString)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(TfLiteFloat16, kTfLiteFloat16)
OCTET_MATCH_TYPE_AND_TFLITE_TYPE(double, kTfLiteFloat64)

#undef OCTET_MATCH_TYPE_AND_TFLITE_TYPE

}  // namespace tflite
