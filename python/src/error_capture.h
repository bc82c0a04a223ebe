// An ErrorReporter that keeps Octet's messages so the Python module can raise them as the
// text of an exception (TFLite's Python interpreter does the same with its reporter).
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "tensorflow/lite/core/api/error_reporter.h"

namespace octet_python {

class CapturingErrorReporter : public tflite::ErrorReporter {
 public:
  int Report(const char* format, va_list args) override {
    va_list measure;
    va_copy(measure, args);
    const int needed = std::vsnprintf(nullptr, 0, format, measure);
    va_end(measure);
    if (needed < 0) return needed;
    std::vector<char> buffer(static_cast<size_t>(needed) + 1);
    std::vsnprintf(buffer.data(), buffer.size(), format, args);
    if (!text_.empty()) text_ += '\n';
    text_.append(buffer.data(), static_cast<size_t>(needed));
    return needed;
  }

  // Everything reported since the last call (empty if nothing was), and forgets it.
  std::string Take() {
    std::string text;
    text.swap(text_);
    return text;
  }

  void Clear() { text_.clear(); }

 private:
  std::string text_;
};

}  // namespace octet_python
