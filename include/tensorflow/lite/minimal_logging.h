// TFLite's minimal logging: "SEVERITY: message" lines on stderr, filtered by a minimum
// severity (TFLITE_LOG_INFO unless changed).
#pragma once

#include <cstdarg>

namespace tflite {

enum LogSeverity {
  TFLITE_LOG_VERBOSE = 0,
  TFLITE_LOG_INFO = 1,
  TFLITE_LOG_WARNING = 2,
  TFLITE_LOG_ERROR = 3,
  TFLITE_LOG_SILENT = 4,
};

namespace logging_internal {

class MinimalLogger {
 public:
  static void Log(LogSeverity severity, const char* format, ...);
  static void LogFormatted(LogSeverity severity, const char* format, va_list args);
  static LogSeverity GetMinimumLogSeverity();
  // Returns the previous minimum.
  static LogSeverity SetMinimumLogSeverity(LogSeverity new_severity);

 private:
  static const char* GetSeverityName(LogSeverity severity);
};

}  // namespace logging_internal
}  // namespace tflite

#define TFLITE_LOG_PROD(severity, format, ...)                                            \
  if ((severity) >= ::tflite::logging_internal::MinimalLogger::GetMinimumLogSeverity()) { \
    ::tflite::logging_internal::MinimalLogger::Log(severity, format, ##__VA_ARGS__);      \
  }

#define TFLITE_LOG_PROD_ONCE(severity, format, ...)    \
  do {                                                 \
    static const bool s_logged = [&] {                 \
      TFLITE_LOG_PROD(severity, format, ##__VA_ARGS__) \
      return true;                                     \
    }();                                               \
    (void)s_logged;                                    \
  } while (false);

// As in TFLite, TFLITE_LOG is compiled out of release (NDEBUG) builds.
#ifndef NDEBUG
#define TFLITE_LOG TFLITE_LOG_PROD
#define TFLITE_LOG_ONCE TFLITE_LOG_PROD_ONCE
#else
#define TFLITE_LOG(severity, format, ...)             \
  while (false) {                                     \
    TFLITE_LOG_PROD(severity, format, ##__VA_ARGS__); \
  }
#define TFLITE_LOG_ONCE TFLITE_LOG
#endif
