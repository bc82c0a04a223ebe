// Forwards to the C param structs, as TFLite's own header does.
#pragma once
#include "tensorflow/lite/c/builtin_op_data.h"
