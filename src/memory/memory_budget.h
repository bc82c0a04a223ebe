// The most memory one interpreter may hold: its activation and variable arenas, the kernels'
// persistent buffers (packed weights, tables) and heap-allocated (dynamic) tensors. Every
// such allocation is charged here first, so a model that asks for more than the limit is
// refused with an error naming the request, instead of the process being killed for
// exhausting the machine's memory.
#pragma once

#include <cstddef>
#include <limits>
#include <string>

namespace octet {

class MemoryBudget {
 public:
  static constexpr size_t kUnlimited = std::numeric_limits<size_t>::max();

  // OCTET_MAX_MEMORY from the environment when set (a size as ParseByteSize reads it),
  // otherwise half of the machine's physical memory: no single interpreter can sensibly
  // claim more, and the error comes before the kernel's out-of-memory killer would.
  static size_t DefaultLimit();

  explicit MemoryBudget(size_t limit = DefaultLimit()) : limit_(limit) {}

  size_t limit() const { return limit_; }
  size_t used() const { return used_; }
  size_t peak() const { return peak_; }
  // What is still free under the limit (0 when a lowered limit is already exceeded).
  size_t available() const { return used_ >= limit_ ? 0 : limit_ - used_; }
  // A lower limit than what is held already does not free anything; later requests fail.
  void set_limit(size_t limit) { limit_ = limit; }

  // Takes `bytes` when they fit under the limit; otherwise takes nothing and returns false.
  bool TryCharge(size_t bytes);
  // Gives back bytes taken before.
  void Release(size_t bytes);
  // Swaps a held charge of `held` bytes for one of `wanted` bytes: a growing buffer needs
  // only its growth to fit. On failure the held charge stays.
  bool TryRecharge(size_t held, size_t wanted);

 private:
  size_t limit_;
  size_t used_ = 0;
  size_t peak_ = 0;
};

// "123", "64k", "512M", "2G", "1.5GiB" or "unlimited"; units are binary (k = 1024).
// False on anything else or on overflow.
bool ParseByteSize(const std::string& text, size_t* bytes);

// "1.50 GiB", "512.0 MiB", "100 B": for error messages.
std::string FormatByteSize(size_t bytes);

}  // namespace octet
