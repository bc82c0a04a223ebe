// An ErrorReporter that keeps every message, one per line, for tests that check what a
// failed load, prepare or invoke said.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>

#include "tensorflow/lite/core/api/error_reporter.h"

namespace octet::testing {

struct CaptureReporter : tflite::ErrorReporter {
  int Report(const char* format, va_list args) override {
    char buf[2048];
    const int n = std::vsnprintf(buf, sizeof(buf), format, args);
    text += buf;
    text += "\n";
    return n;
  }
  std::string text;
};

}  // namespace octet::testing
