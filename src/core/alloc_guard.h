// Running out of memory inside Octet is an error, never a crash or an exception seen by the
// caller. C-style allocations (TfLiteIntArrayCreate, malloc) that return null are turned
// into std::bad_alloc with OrThrow where the code cannot go on; C++ allocations throw it by
// themselves. Every public entry point that can allocate (model loading, the interpreter
// builder, AllocateTensors, Invoke, resizing, delegates, the C API) runs its body through
// GuardStatus, which reports "out of memory" and returns kTfLiteError. Everything between
// is RAII, so an unwound call leaks nothing (tests/core/allocation_failure_test.cc injects a
// failure at each allocation in turn to prove it).
#pragma once

#include <exception>
#include <new>
#include <utility>

#include "tensorflow/lite/c/common.h"
#include "tensorflow/lite/core/api/error_reporter.h"

namespace octet {

template <typename T>
T* OrThrow(T* allocated) {
  if (allocated == nullptr) throw std::bad_alloc();
  return allocated;
}

// A report that may itself run out of memory (reporters store messages) is dropped.
inline void ReportQuietly(tflite::ErrorReporter* reporter, const char* what,
                          const char* problem) noexcept {
  if (reporter == nullptr) return;
  try {
    reporter->Report("%s: %s", what, problem);
  } catch (...) {
  }
}

// Runs body() -> TfLiteStatus; an exception becomes a report naming `what` and kTfLiteError.
template <typename Body>
TfLiteStatus GuardStatus(tflite::ErrorReporter* reporter, const char* what, Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (const std::bad_alloc&) {
    ReportQuietly(reporter, what, "out of memory");
  } catch (const std::exception& e) {
    ReportQuietly(reporter, what, e.what());
  }
  return kTfLiteError;
}

}  // namespace octet
