// SKIP_GRAM: the n-grams with skips of one sentence (input 0, a string tensor holding one
// string) as a 1-D string tensor, each n-gram its words joined by one space
// (kernels/reference/skip_gram.h has the split and the enumeration order). The output is
// sized when it is written.
#include "kernels/reference/skip_gram.h"

#include <string_view>
#include <vector>

#include "ops/lookup/lookup_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/string_util.h"

namespace octet::ops::lookup {
namespace {

constexpr char kOp[] = "SKIP_GRAM";

TfLiteStatus Prepare(TfLiteContext* context, TfLiteNode* node) {
  TF_LITE_ENSURE_STATUS(CheckArity(context, node, kOp, 1, 1, 1));
  const auto* params = static_cast<const TfLiteSkipGramParams*>(node->builtin_data);
  TF_LITE_ENSURE_STATUS(RequireParams(context, kOp, params));
  OCTET_OP_ENSURE(context, params->ngram_size >= 1, kOp, "ngram_size must be >= 1, got %d",
                  params->ngram_size);
  OCTET_OP_ENSURE(context, params->max_skip_size >= 0, kOp, "max_skip_size must be >= 0, got %d",
                  params->max_skip_size);
  const TfLiteTensor* input;
  TfLiteTensor* output;
  TF_LITE_ENSURE_STATUS(RequireInput(context, node, kOp, 0, &input));
  TF_LITE_ENSURE_STATUS(RequireOutput(context, node, kOp, 0, &output));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "input", input, kTfLiteString));
  TF_LITE_ENSURE_STATUS(RequireType(context, kOp, "output", output, kTfLiteString));
  OCTET_OP_ENSURE(context, tflite::NumElements(input) == 1, kOp,
                  "input must hold one sentence, got shape %s", DimsString(input).c_str());
  return kTfLiteOk;
}

TfLiteStatus Eval(TfLiteContext* context, TfLiteNode* node) {
  const auto* params = static_cast<const TfLiteSkipGramParams*>(node->builtin_data);
  const TfLiteTensor* input = tflite::GetInput(context, node, 0);
  TfLiteTensor* output = tflite::GetOutput(context, node, 0);
  int strings = 0;
  TF_LITE_ENSURE_STATUS(CheckStrings(context, kOp, "input", input, &strings));
  OCTET_OP_ENSURE(context, strings >= 1, kOp, "input holds no string");
  const tflite::StringRef sentence = tflite::GetString(input, 0);
  const std::vector<std::string_view> words =
      reference::SkipGramWords(std::string_view(sentence.str, sentence.len));
  tflite::DynamicBuffer buffer;
  std::vector<tflite::StringRef> gram;
  reference::SkipGrams(static_cast<int>(words.size()), params->ngram_size, params->max_skip_size,
                       params->include_all_ngrams, [&](const int* word, int count) {
                         gram.clear();
                         for (int i = 0; i < count; ++i) {
                           gram.push_back({words[word[i]].data(), words[word[i]].size()});
                         }
                         buffer.AddJoinedString(gram, ' ');
                       });
  buffer.WriteToTensorAsVector(output);
  return kTfLiteOk;
}

}  // namespace
}  // namespace octet::ops::lookup

namespace tflite::ops::builtin {

TfLiteRegistration* Register_SKIP_GRAM() {
  static TfLiteRegistration r = octet::ops::MakeRegistration(
      nullptr, nullptr, octet::ops::lookup::Prepare, octet::ops::lookup::Eval);
  return &r;
}

}  // namespace tflite::ops::builtin
