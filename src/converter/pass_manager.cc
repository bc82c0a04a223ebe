#include "converter/pass_manager.h"

#include "converter/graph.h"
#include "converter/passes/passes.h"

namespace octet::converter {

const std::vector<PassInfo>& AllPasses() {
  // Order matters only for speed to the fixed point: clean-ups first, so the fusions see the
  // plain pattern, then the fusions, then clean-ups of what they left.
  static const std::vector<PassInfo> kPasses = {
      {"remove-identity",
       "drop RESHAPE that keeps the shape, QUANTIZE to the same parameters and "
       "QUANTIZE(DEQUANTIZE(x)) round trips; merge RESHAPE chains",
       passes::RemoveIdentity},
      {"fold-constants", "compute ops whose inputs are all constant once, keep the result",
       passes::FoldConstants},
      {"fold-pad",
       "fold PAD / PADV2 of zeros into the SAME padding of the CONV_2D / "
       "DEPTHWISE_CONV_2D that reads it",
       passes::FoldPad},
      {"fold-batchnorm",
       "fold a constant per-channel MUL / ADD / SUB after a float CONV_2D, DEPTHWISE_CONV_2D or "
       "FULLY_CONNECTED into its weights and bias",
       passes::FoldBatchNorm},
      {"hard-swish", "x * relu6(x + 3) / 6 -> HARD_SWISH", passes::FuseHardSwish},
      {"gelu", "0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) -> GELU (approximate)",
       passes::FuseGelu},
      {"lstm-cells",
       "unrolled float LSTM cells (FC+FC, SPLIT, gates, c = f*c + i*g, h = o*tanh(c)) over an "
       "UNPACK -> UNIDIRECTIONAL_SEQUENCE_LSTM, whose state then carries over between invokes "
       "as in every TFLite LSTM",
       passes::FuseLstmCells, false},
      {"fuse-activation", "RELU / RELU6 / RELU_N1_TO_1 fused into the op that produces their input",
       passes::FuseActivation},
      {"dedupe-constants", "one buffer and one tensor for identical constants",
       passes::DedupeConstants},
      {"remove-dead", "drop ops whose results nothing reads", passes::RemoveDead},
  };
  return kPasses;
}

const PassInfo* FindPass(const std::string& name) {
  for (const PassInfo& pass : AllPasses()) {
    if (name == pass.name) return &pass;
  }
  return nullptr;
}

bool RunPasses(edit::ModelT& model, const std::vector<std::string>& names,
               std::vector<PassReport>* report, std::string* error, int max_rounds) {
  std::vector<const PassInfo*> chosen;
  if (names.empty()) {
    for (const PassInfo& pass : AllPasses()) {
      if (pass.by_default) chosen.push_back(&pass);
    }
  } else {
    for (const std::string& name : names) {
      const PassInfo* pass = FindPass(name);
      if (pass == nullptr) {
        std::string known;
        for (const PassInfo& p : AllPasses())
          known += std::string(known.empty() ? "" : ", ") + p.name;
        *error = "unknown pass '" + name + "' (passes: " + known + ")";
        return false;
      }
      chosen.push_back(pass);
    }
  }
  report->clear();
  for (const PassInfo* pass : chosen) report->push_back({pass->name, {}});
  for (int round = 0; round < max_rounds; ++round) {
    bool changed = false;
    for (size_t i = 0; i < chosen.size(); ++i) {
      PassLog log;
      if (!chosen[i]->run(model, log, error)) {
        *error = std::string(chosen[i]->name) + ": " + *error;
        return false;
      }
      changed = changed || !log.changes.empty();
      for (std::string& line : log.changes) (*report)[i].changes.push_back(std::move(line));
    }
    if (!changed) break;
  }
  CompactModel(model);
  return true;
}

}  // namespace octet::converter
