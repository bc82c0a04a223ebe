#include "tensorflow/lite/core/api/error_reporter.h"

#include <cstdio>

#include "tensorflow/lite/stderr_reporter.h"

namespace tflite {

int ErrorReporter::Report(const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = Report(format, args);
  va_end(args);
  return n;
}

int ErrorReporter::ReportError(void*, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = Report(format, args);
  va_end(args);
  return n;
}

int StderrReporter::Report(const char* format, va_list args) {
  const int n = std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  return n;
}

ErrorReporter* DefaultErrorReporter() {
  static StderrReporter reporter;
  return &reporter;
}

}  // namespace tflite
