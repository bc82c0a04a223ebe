#include "core/resource_variables.h"

#include <cstring>

#include "memory/memory_budget.h"

namespace octet {

ResourceVariables::~ResourceVariables() {
  if (budget_ != nullptr) budget_->Release(charged_);
}

int ResourceVariables::HandleFor(const std::string& container, const std::string& shared_name) {
  const auto inserted =
      handles_.emplace(std::make_pair(container, shared_name), static_cast<int>(handles_.size()));
  return inserted.first->second;
}

const ResourceVariable* ResourceVariables::Find(int id) const {
  const auto it = variables_.find(id);
  return it == variables_.end() || !it->second.assigned ? nullptr : &it->second;
}

bool ResourceVariables::Assign(int id, const TfLiteTensor& value, std::string* error) {
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

}  // namespace octet
