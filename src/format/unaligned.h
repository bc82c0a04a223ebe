// Reading scalar vectors of an untrusted .tflite without assuming alignment.
#ifndef OCTET_FORMAT_UNALIGNED_H_
#define OCTET_FORMAT_UNALIGNED_H_

#include <cstring>

#include "flatbuffers/flatbuffers.h"

namespace octet::format {

// Element i of a scalar vector. The flatbuffers verifier only checks the alignment of a
// vector's 4-byte length prefix, so a crafted file (or a caller's buffer at an odd address)
// can put 8-byte elements such as the int64 zero points at a 4-byte boundary, where
// Vector<int64_t>::Get is an unaligned load (undefined behaviour). Little-endian, as the
// format and every target Octet builds for.
template <typename T>
T UnalignedGet(const flatbuffers::Vector<T>* v, flatbuffers::uoffset_t i) {
  T value;
  std::memcpy(&value, v->Data() + static_cast<size_t>(i) * sizeof(T), sizeof(T));
  return value;
}

}  // namespace octet::format

#endif  // OCTET_FORMAT_UNALIGNED_H_
