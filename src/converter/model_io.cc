#include "converter/model_io.h"

#include <fstream>
#include <iterator>

#include "format/verifier.h"

namespace octet::converter {

ModelPtr UnpackModel(const std::vector<uint8_t>& bytes, std::string* error) {
  std::string why;
  if (!format::VerifyModel(bytes.data(), bytes.size(), &why)) {
    *error = "not a valid model: " + why;
    return nullptr;
  }
  const edit::Model* packed = edit::GetModel(bytes.data());
  if (packed->buffers() != nullptr) {
    for (const edit::Buffer* buffer : *packed->buffers()) {
      // Offsets 0 and 1 both mean "no external data" in TFLite's writer.
      if (buffer != nullptr && buffer->offset() > 1) {
        *error =
            "the model keeps constant data outside the flatbuffer (Buffer.offset); the model "
            "tools edit only self-contained models";
        return nullptr;
      }
    }
  }
  return ModelPtr(packed->UnPack());
}

ModelPtr ReadModelFile(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot open " + path;
    return nullptr;
  }
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  ModelPtr model = UnpackModel(bytes, error);
  if (model == nullptr) *error = path + ": " + *error;
  return model;
}

bool PackModel(const edit::ModelT& model, std::vector<uint8_t>* bytes, std::string* error) {
  flatbuffers::FlatBufferBuilder fbb;
  edit::FinishModelBuffer(fbb, edit::Model::Pack(fbb, &model));
  bytes->assign(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
  std::string why;
  if (!format::VerifyModel(bytes->data(), bytes->size(), &why)) {
    *error = "the rewritten model does not verify: " + why;
    return false;
  }
  return true;
}

bool WriteFile(const std::string& path, const std::vector<uint8_t>& bytes, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

ModelPtr CloneModel(const edit::ModelT& model, std::string* error) {
  std::vector<uint8_t> bytes;
  if (!PackModel(model, &bytes, error)) return nullptr;
  return UnpackModel(bytes, error);
}

}  // namespace octet::converter
