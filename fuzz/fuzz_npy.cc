// libFuzzer target: the .npy reader (octet::ParseNpy), as `octet run --input` uses it. A
// parsed array must be self-consistent: its data holds exactly shape-product elements, and
// writing it back and parsing that again gives the same array.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "octet/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<uint8_t> bytes(data, data + size);
  octet::NpyArray array;
  std::string error;
  if (!octet::ParseNpy(bytes, &array, &error)) {
    if (error.empty()) std::abort();  // a refusal must say why
    return 0;
  }
  uint64_t elements = 1;
  for (int d : array.shape) elements *= static_cast<uint64_t>(d);
  if (array.data.size() != elements * TfLiteTypeGetSize(array.type)) std::abort();
  const std::vector<uint8_t> again =
      octet::SerializeNpy(array.type, array.shape, array.data.data(), array.data.size());
  octet::NpyArray round_trip;
  if (!octet::ParseNpy(again, &round_trip, &error) || round_trip.type != array.type ||
      round_trip.shape != array.shape || round_trip.data != array.data) {
    std::abort();
  }
  return 0;
}
