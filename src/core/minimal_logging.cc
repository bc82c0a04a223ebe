#include "tensorflow/lite/minimal_logging.h"

#include <atomic>
#include <cstdio>

namespace tflite {
namespace logging_internal {
namespace {
std::atomic<int> g_minimum_severity{TFLITE_LOG_INFO};
}  // namespace

void MinimalLogger::Log(LogSeverity severity, const char* format, ...) {
  va_list args;
  va_start(args, format);
  LogFormatted(severity, format, args);
  va_end(args);
}

void MinimalLogger::LogFormatted(LogSeverity severity, const char* format, va_list args) {
  if (severity < GetMinimumLogSeverity()) return;
  std::fprintf(stderr, "%s: ", GetSeverityName(severity));
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
}

LogSeverity MinimalLogger::GetMinimumLogSeverity() {
  return static_cast<LogSeverity>(g_minimum_severity.load());
}

LogSeverity MinimalLogger::SetMinimumLogSeverity(LogSeverity new_severity) {
  return static_cast<LogSeverity>(g_minimum_severity.exchange(new_severity));
}

const char* MinimalLogger::GetSeverityName(LogSeverity severity) {
  switch (severity) {
    case TFLITE_LOG_VERBOSE:
      return "VERBOSE";
    case TFLITE_LOG_INFO:
      return "INFO";
    case TFLITE_LOG_WARNING:
      return "WARNING";
    case TFLITE_LOG_ERROR:
      return "ERROR";
    case TFLITE_LOG_SILENT:
      return "SILENT";
  }
  return "<Unknown severity>";
}

}  // namespace logging_internal
}  // namespace tflite
