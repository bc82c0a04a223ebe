// The resources of one interpreter, shared by all its subgraphs and kept across invokes, as
// TFLite's resource map:
//  - variables (VAR_HANDLE / ASSIGN_VARIABLE / READ_VARIABLE): a handle is an int32 id given
//    to each distinct (container, shared_name) in the order the VAR_HANDLE nodes are
//    initialized; a variable takes its type, shape and bytes from every assignment;
//  - lookup tables (HASHTABLE / HASHTABLE_IMPORT / HASHTABLE_FIND / HASHTABLE_SIZE): keyed
//    by the model's table_id, int64 -> string or string -> int64, filled by the first import.
// Variables and tables have separate id spaces. Their bytes count against the interpreter's
// memory limit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
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

struct LookupTable {
  TfLiteType key_type = kTfLiteNoType;    // kTfLiteInt64 or kTfLiteString
  TfLiteType value_type = kTfLiteNoType;  // the other one
  bool imported = false;
  std::unordered_map<int64_t, std::string> int_keys;
  std::unordered_map<std::string, int64_t> string_keys;
  size_t size() const { return key_type == kTfLiteInt64 ? int_keys.size() : string_keys.size(); }
};

class Resources {
 public:
  explicit Resources(MemoryBudget* budget = nullptr) : budget_(budget) {}
  ~Resources();
  Resources(const Resources&) = delete;
  Resources& operator=(const Resources&) = delete;

  // ---- variables ----
  // The id of (container, shared_name), made on first use.
  int VariableHandle(const std::string& container, const std::string& shared_name);
  // The variable with this id, or null if nothing was ever assigned to it.
  const ResourceVariable* FindVariable(int id) const;
  // Copies the tensor's type, shape, quantization and bytes into variable `id`; false with
  // `error` when the id was never handed out or the memory limit refuses the bytes.
  bool AssignVariable(int id, const TfLiteTensor& value, std::string* error);

  // ---- lookup tables ----
  // The table `id`, made with these types if new; false with `error` when it exists with
  // other types.
  bool MakeTable(int id, TfLiteType key_type, TfLiteType value_type, std::string* error);
  LookupTable* FindTable(int id);
  // Charges `bytes` more for table contents; false when the memory limit refuses them.
  bool ChargeTable(size_t bytes);

 private:
  MemoryBudget* budget_;
  std::map<std::pair<std::string, std::string>, int> handles_;
  std::map<int, ResourceVariable> variables_;
  std::map<int, LookupTable> tables_;
  size_t charged_ = 0;  // bytes of all variables and tables, held against the budget
};

}  // namespace octet
