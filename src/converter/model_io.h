// The model tools' editable model: a .tflite file verified as the runtime verifies it, then
// unpacked into flatc's object API (edit::ModelT); and the way back, packed and verified again.
#ifndef OCTET_CONVERTER_MODEL_IO_H_
#define OCTET_CONVERTER_MODEL_IO_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "edit_schema_generated.h"

namespace octet::converter {

using ModelPtr = std::unique_ptr<edit::ModelT>;

// Verifies `bytes` with the runtime's verifier, then unpacks them. Null with *error set
// when the model is malformed or keeps buffers outside the flatbuffer (not editable here).
ModelPtr UnpackModel(const std::vector<uint8_t>& bytes, std::string* error);
ModelPtr ReadModelFile(const std::string& path, std::string* error);

// Packs `model` (file identifier "TFL3") and verifies the result as the runtime would load
// it: a pass that broke the graph is caught here, not by a user's interpreter.
bool PackModel(const edit::ModelT& model, std::vector<uint8_t>* bytes, std::string* error);
bool WriteFile(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error);

// A deep copy (pack and unpack): for running a model before and after a rewrite.
ModelPtr CloneModel(const edit::ModelT& model, std::string* error);

}  // namespace octet::converter

#endif  // OCTET_CONVERTER_MODEL_IO_H_
