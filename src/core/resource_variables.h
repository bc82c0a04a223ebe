// Resource variables (VAR_HANDLE / ASSIGN_VARIABLE / READ_VARIABLE): one store per
// interpreter, shared by all its subgraphs and kept across invokes, as TFLite's resource map.
// A handle is an int32 id given to each distinct (container, shared_name) in the order the
// VAR_HANDLE nodes are initialized; a variable takes its type, shape and bytes from every
// assignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tensorflow/lite/c/common.h"

namespace octet {

class MemoryBudget;

struct ResourceVariable {
  bool assigned = false;
  TfLiteType type = kTfLiteNoType;
  std::vector<int> dims;
  TfLiteQuantizationParams params{};
  std::vector<uint8_t> bytes;
};

class ResourceVariables {
 public:
  explicit ResourceVariables(MemoryBudget* budget = nullptr) : budget_(budget) {}
  ~ResourceVariables();
  ResourceVariables(const ResourceVariables&) = delete;
  ResourceVariables& operator=(const ResourceVariables&) = delete;

  // The id of (container, shared_name), made on first use.
  int HandleFor(const std::string& container, const std::string& shared_name);
  // The variable with this id, or null if nothing was ever assigned to it.
  const ResourceVariable* Find(int id) const;
  // Copies the tensor's type, shape, quantization and bytes into variable `id`; false with
  // `error` when the id was never handed out or the memory limit refuses the bytes.
  bool Assign(int id, const TfLiteTensor& value, std::string* error);

 private:
  MemoryBudget* budget_;
  std::map<std::pair<std::string, std::string>, int> handles_;
  std::map<int, ResourceVariable> variables_;
  size_t charged_ = 0;  // bytes of all variables, held against the budget
};

}  // namespace octet
