// float32 ADD / SUB / MUL / DIV over contiguous elements (equal shapes, or one operand a
// single value) with the fused activation clamp, one implementation per kernel path. Every
// path computes exactly the reference's expression, min(max(a op b, lo), hi) in IEEE single
// precision, so the results are the reference's bits. Plain aggregates only (see qgemm.h).
#pragma once

#include <cstddef>

namespace octet::optimized {

enum class FBinaryOp : int { kAdd = 0, kSub = 1, kMul = 2, kDiv = 3 };

// out[i] = clamp(a[i] op b[i]) for i < n; with a_scalar a[0] stands for every a[i], with
// b_scalar b[0] for every b[i].
struct FBinaryCall {
  FBinaryOp op;
  const float* a;
  const float* b;
  float* out;
  size_t n;
  bool a_scalar;
  bool b_scalar;
  float act_min;
  float act_max;
};

using FBinaryFn = void (*)(const FBinaryCall& call);

struct FBinaryKernel {
  const char* name;
  FBinaryFn run;
};

extern const FBinaryKernel kFBinaryScalar;
extern const FBinaryKernel kFBinaryAvx2;
extern const FBinaryKernel kFBinaryAvx512;

}  // namespace octet::optimized
