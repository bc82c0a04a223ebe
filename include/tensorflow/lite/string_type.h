// TFLite's string alias (kept for code that spells it tflite::string).
#pragma once

#include <string>

namespace tflite {
using std::string;
}  // namespace tflite
