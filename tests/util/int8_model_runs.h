// A model built in a test, run twice through the builtin resolver on one int8 input (its
// state carried over, as for variable tensors), with output 0's bytes of both invokes; and
// the comparison with two hex goldens from the TFLite oracle. Used by the golden tests of
// the integer LSTMs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensorflow/lite/c/common.h"

namespace octet::testing {

struct Int8ModelRuns {
  TfLiteStatus status = kTfLiteError;
  std::vector<int8_t> values;  // the output of invoke 1, then of invoke 2
  std::string log;             // everything the interpreter reported
};

// When the environment variable `dump_env` names a directory, the model and input are also
// written there as <name>.tflite and <name>.in.bin (for the oracle).
Int8ModelRuns RunTwiceOnInt8Input(const std::vector<uint8_t>& model, const std::vector<int8_t>& x,
                                  const char* dump_env, const std::string& name);

// Both invokes' bytes equal the goldens (hex, as the oracle script prints them).
void ExpectInt8Goldens(const Int8ModelRuns& runs, const std::string& invoke1,
                       const std::string& invoke2);

}  // namespace octet::testing
