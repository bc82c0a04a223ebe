// Small matching helpers for the composite-op passes (HARD_SWISH, GELU).
#ifndef OCTET_CONVERTER_PASSES_PATTERN_H_
#define OCTET_CONVERTER_PASSES_PATTERN_H_

#include <set>
#include <vector>

#include "converter/graph.h"

namespace octet::converter::passes {

// A float constant holding one value (any shape of one element) within `tolerance` of
// `value`, relative.
bool IsScalarNear(const edit::ModelT& model, const edit::SubGraphT& graph, int32_t tensor,
                  float value, float tolerance = 1e-5f);

// The op producing `tensor` when it is `code` with no fused activation and two inputs, else -1.
int BinaryProducer(const edit::ModelT& model, const edit::SubGraphT& graph, const Usage& usage,
                   int32_t tensor, edit::BuiltinOperator code);

// The other input of a two-input op, given one of them; -1 when `known` is not an input.
int32_t OtherInput(const edit::OperatorT& op, int32_t known);

// The ops of a matched pattern and the tensor it finally writes: the pattern may go when
// every tensor it writes before `output` is read only inside it.
bool SelfContained(const edit::SubGraphT& graph, const Usage& usage, const std::set<int>& ops,
                   int32_t output);

// Replaces the pattern's ops by one new op (inputs -> output), placed where the pattern's
// last op was, so everything it reads is already computed.
void ReplacePattern(edit::SubGraphT& graph, const std::set<int>& ops,
                    std::unique_ptr<edit::OperatorT> replacement);

}  // namespace octet::converter::passes

#endif  // OCTET_CONVERTER_PASSES_PATTERN_H_
