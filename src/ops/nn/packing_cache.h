// What a node's packed weights were made from: the constant data and the micro-kernel whose
// layout they are in. A re-prepare (after a resize) keeps the packing while both are the same,
// and repacks when the kernel path changed (each path packs for its own kernel).
#pragma once

namespace octet::ops::nn {

struct PackingCache {
  const void* weights = nullptr;
  const void* kernel = nullptr;

  // Calls pack() unless the cache already holds `w` packed for `k`; true when a packing of
  // `w` for `k` is in place. A failed pack() leaves the cache as it was.
  template <typename Pack>
  bool Ensure(const void* w, const void* k, const Pack& pack) {
    if (weights == w && kernel == k) return true;
    if (!pack()) return false;
    weights = w;
    kernel = k;
    return true;
  }
};

}  // namespace octet::ops::nn
