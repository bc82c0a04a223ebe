// One run of a single-node OpModel graph, as the glue tests compare them across kernel paths:
// the output, the kernel the node chose in prepare, or the error that stopped it.
#pragma once

#include <string>
#include <vector>

#include "octet/kernel_info.h"
#include "util/op_model.h"

namespace octet::testing {

template <typename T>
struct NodeOutcome {
  std::vector<T> output;
  std::string kernel;
  std::string error;
};

// Builds `m`, calls `feed()` to set its inputs, invokes it `invokes` times and reads output
// tensor `output`.
template <typename T, typename Feed>
NodeOutcome<T> BuildAndRun(OpModel& m, int output, Feed feed, int invokes = 1) {
  NodeOutcome<T> out;
  if (m.Build() != kTfLiteOk) {
    out.error = m.error();
    return out;
  }
  feed();
  for (int i = 0; i < invokes; ++i) {
    if (m.Invoke() != kTfLiteOk) {
      out.error = m.error();
      return out;
    }
  }
  out.output = m.GetOutput<T>(output);
  out.kernel = GetNodeKernelName(m.interpreter()->primary_subgraph(), 0);
  return out;
}

}  // namespace octet::testing
