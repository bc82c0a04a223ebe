#include "memory/memory_budget.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace octet {

size_t MemoryBudget::DefaultLimit() {
  if (const char* env = std::getenv("OCTET_MAX_MEMORY")) {
    size_t bytes = 0;
    if (ParseByteSize(env, &bytes)) return bytes;
    std::fprintf(stderr, "octet: ignoring OCTET_MAX_MEMORY='%s' (not a size such as 512M)\n", env);
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return kUnlimited;
  const auto physical = static_cast<unsigned long long>(pages) * page_size;
  const unsigned long long half = physical / 2;
  return half > kUnlimited ? kUnlimited : static_cast<size_t>(half);
}

bool MemoryBudget::TryCharge(size_t bytes) {
  if (bytes > available()) return false;
  used_ += bytes;
  if (used_ > peak_) peak_ = used_;
  return true;
}

void MemoryBudget::Release(size_t bytes) { used_ = bytes > used_ ? 0 : used_ - bytes; }

bool MemoryBudget::TryRecharge(size_t held, size_t wanted) {
  if (wanted <= held) {
    Release(held - wanted);
    return true;
  }
  return TryCharge(wanted - held);
}

bool ParseByteSize(const std::string& text, size_t* bytes) {
  if (text == "unlimited" || text == "none") {
    *bytes = MemoryBudget::kUnlimited;
    return true;
  }
  const char* begin = text.c_str();
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(begin[0])) || begin[0] == '.')) {
    return false;
  }
  char* end = nullptr;
  const double number = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(number) || number < 0) return false;
  std::string unit(end);
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  double scale = 1;
  if (unit.empty() || unit == "b") {
    scale = 1;
  } else if (unit == "k" || unit == "kb" || unit == "kib") {
    scale = 1024.0;
  } else if (unit == "m" || unit == "mb" || unit == "mib") {
    scale = 1024.0 * 1024;
  } else if (unit == "g" || unit == "gb" || unit == "gib") {
    scale = 1024.0 * 1024 * 1024;
  } else if (unit == "t" || unit == "tb" || unit == "tib") {
    scale = 1024.0 * 1024 * 1024 * 1024;
  } else {
    return false;
  }
  const double value = std::floor(number * scale);
  // 2^64 as a double: anything at or above it does not fit a size_t.
  if (!(value < 18446744073709551616.0)) return false;
  *bytes = static_cast<size_t>(value);
  return true;
}

std::string FormatByteSize(size_t bytes) {
  if (bytes == MemoryBudget::kUnlimited) return "unlimited";
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[48];
  if (unit == 0) {
    std::snprintf(text, sizeof(text), "%zu B", bytes);
  } else {
    std::snprintf(text, sizeof(text), "%.2f %s", value, kUnits[unit]);
  }
  return text;
}

}  // namespace octet
