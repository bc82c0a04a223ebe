// Raw int32 products of constant int8 weight rows with quantized activation rows on the
// quantized GEMM micro-kernels, for the hybrid recurrent ops (SVDF,
// UNIDIRECTIONAL_SEQUENCE_LSTM). The weights are packed once in prepare (no input offset, no
// bias, placeholder requantization: the kernel's raw int32 mode), so each sum is exactly the
// reference's int32 dot product; the ops then finish in float with the reference code.
#pragma once

#include <cstdint>

#include "kernels/optimized/qgemm/qgemm_pack.h"
#include "tensorflow/lite/c/common.h"

namespace octet::ops::nn {

struct RecurrentGemm {
  optimized::QGemmPacked gemm;
  int n = 0;      // weight rows: the columns of each product row
  int depth = 0;  // values per weight row and per activation row
};

// The quantized GEMM kernel of the active kernel path, or nullptr on the reference path.
const optimized::QGemmKernel* RecurrentGemmKernel();

// Packs `count` int8 matrices of `rows` x `depth` (row-major), stacked in order into one
// [count * rows, depth] matrix, into persistent memory. False when the shapes are empty or
// memory is short (the op then runs its reference kernel). With `biases` (one [rows] int32
// array per part, or null) and `input_offset`, each sum becomes
// bias[j] + Σ_k w[j, k] * (q[r, k] + input_offset), modulo 2^32 (the packer folds both in).
bool PackRecurrentGemm(TfLiteContext* context, const optimized::QGemmKernel& kernel,
                       const int8_t* const* parts, int count, int rows, int depth,
                       RecurrentGemm* out, const int32_t* const* biases = nullptr,
                       int32_t input_offset = 0);

// dots[r * n + j] = Σ_k w[j, k] * q[r, k] for r < rows (activation rows `depth` bytes apart),
// split over the interpreter's thread pool.
void RunRecurrentGemm(TfLiteContext* context, const RecurrentGemm& m, const int8_t* q, int rows,
                      int32_t* dots);

}  // namespace octet::ops::nn
