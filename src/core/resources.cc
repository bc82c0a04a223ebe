#include "core/resources.h"

#include <cstring>

#include "memory/memory_budget.h"

namespace octet {

Resources::~Resources() {
  if (budget_ != nullptr) budget_->Release(charged_);
}

int Resources::VariableHandle(const std::string& container, const std::string& shared_name) {
  const auto inserted =
      handles_.emplace(std::make_pair(container, shared_name), static_cast<int>(handles_.size()));
  return inserted.first->second;
}

const ResourceVariable* Resources::FindVariable(int id) const {
  const auto it = variables_.find(id);
  return it == variables_.end() || !it->second.assigned ? nullptr : &it->second;
}

bool Resources::AssignVariable(int id, const TfLiteTensor& value, std::string* error) {
  if (id < 0 || id >= static_cast<int>(handles_.size())) {
    *error = "resource id " + std::to_string(id) + " was not made by a VAR_HANDLE";
    return false;
  }
  ResourceVariable& v = variables_[id];
  const size_t old_bytes = v.bytes.size();
  if (budget_ != nullptr && !budget_->TryRecharge(old_bytes, value.bytes)) {
    *error = "variable " + std::to_string(id) + " needs " + std::to_string(value.bytes) +
             " bytes, more than the memory limit leaves";
    return false;
  }
  charged_ = charged_ - old_bytes + value.bytes;
  v.bytes.resize(value.bytes);
  if (value.bytes > 0 && value.data.raw != nullptr) {
    std::memcpy(v.bytes.data(), value.data.raw, value.bytes);
  }
  v.type = value.type;
  v.params = value.params;
  v.dims.assign(value.dims->data, value.dims->data + value.dims->size);
  v.assigned = true;
  return true;
}

bool Resources::MakeTable(int id, TfLiteType key_type, TfLiteType value_type, std::string* error) {
  const auto it = tables_.find(id);
  if (it != tables_.end()) {
    if (it->second.key_type == key_type && it->second.value_type == value_type) return true;
    *error = "table " + std::to_string(id) + " exists with " +
             TfLiteTypeGetName(it->second.key_type) + " keys and " +
             TfLiteTypeGetName(it->second.value_type) + " values";
    return false;
  }
  LookupTable& table = tables_[id];
  table.key_type = key_type;
  table.value_type = value_type;
  return true;
}

LookupTable* Resources::FindTable(int id) {
  const auto it = tables_.find(id);
  return it == tables_.end() ? nullptr : &it->second;
}

bool Resources::ChargeTable(size_t bytes) {
  if (budget_ != nullptr && !budget_->TryCharge(bytes)) return false;
  charged_ += bytes;
  return true;
}

}  // namespace octet
