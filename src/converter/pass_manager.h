// The fusion passes by name, and running a list of them to a fixed point with a report of
// what each changed.
#ifndef OCTET_CONVERTER_PASS_MANAGER_H_
#define OCTET_CONVERTER_PASS_MANAGER_H_

#include <string>
#include <vector>

#include "edit_schema_generated.h"

namespace octet::converter {

// What one run of a pass did: one line per rewrite ("CONV_2D #3 + RELU6 #4 -> CONV_2D").
struct PassLog {
  std::vector<std::string> changes;
  void Add(std::string line) { changes.push_back(std::move(line)); }
};

struct PassInfo {
  const char* name;
  const char* summary;
  // Rewrites `model` in place, logging each change. Returns false with *error set only when
  // something went wrong that leaves the model unusable (the tool then writes nothing).
  bool (*run)(edit::ModelT& model, PassLog& log, std::string* error);
  // Run when no pass is named. Off for rewrites that change more than the outputs of one
  // invoke (state kept across invokes), which the user must ask for by name.
  bool by_default = true;
};

// Every pass, in the order `octet fuse` runs them by default.
const std::vector<PassInfo>& AllPasses();
const PassInfo* FindPass(const std::string& name);

struct PassReport {
  std::string name;
  std::vector<std::string> changes;
};

// Runs `names` (the by-default passes when empty) in order, repeating the list while any pass
// changes something (a fusion can enable another), at most `max_rounds` times, then compacts the
// model (dead tensors and buffers). Unknown names are an error.
bool RunPasses(edit::ModelT& model, const std::vector<std::string>& names,
               std::vector<PassReport>* report, std::string* error, int max_rounds = 8);

}  // namespace octet::converter

#endif  // OCTET_CONVERTER_PASS_MANAGER_H_
