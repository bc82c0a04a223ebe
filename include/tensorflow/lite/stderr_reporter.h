// The error reporter that writes each message as one line on stderr.
#pragma once

#include <cstdarg>

#include "tensorflow/lite/core/api/error_reporter.h"

namespace tflite {

struct StderrReporter : public ErrorReporter {
  int Report(const char* format, va_list args) override;
};

// A process-wide StderrReporter (declared in core/api/error_reporter.h too).
ErrorReporter* DefaultErrorReporter();

}  // namespace tflite
