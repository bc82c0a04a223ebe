// SKIP_GRAM: n-grams, skip-grams and include_all_ngrams worked by hand in TFLite's order,
// TFLite's whitespace split (a leading separator drops the first word), too few words, and
// prepare's errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tensorflow/lite/c/builtin_op_data.h"
#include "tensorflow/lite/kernels/register.h"
#include "tensorflow/lite/schema/schema_generated.h"
#include "tensorflow/lite/string_util.h"
#include "util/op_model.h"

namespace tflite::ops::builtin {
TfLiteRegistration* Register_SKIP_GRAM();
}

namespace octet {
namespace {

using testing::OpModel;
using testing::TensorSpec;

std::vector<char> StringBuffer(const std::vector<std::string>& strings) {
  tflite::DynamicBuffer buf;
  for (const auto& s : strings) buf.AddString(s.data(), s.size());
  char* raw = nullptr;
  const int n = buf.WriteToBuffer(&raw);
  std::vector<char> out(raw, raw + n);
  std::free(raw);
  return out;
}

TfLiteSkipGramParams Params(int ngram, int skip, bool all) {
  TfLiteSkipGramParams p{};
  p.ngram_size = ngram;
  p.max_skip_size = skip;
  p.include_all_ngrams = all;
  return p;
}

std::vector<std::string> Grams(const std::string& sentence, const TfLiteSkipGramParams& p) {
  OpModel m;
  const auto bytes = StringBuffer({sentence});
  m.AddConstInput(TensorSpec{kTfLiteString, {1}}, bytes.data(), bytes.size());
  const int out = m.AddOutput({kTfLiteString, {}});
  m.SetBuiltinOp(tflite::BuiltinOperator_SKIP_GRAM, tflite::ops::builtin::Register_SKIP_GRAM(), p);
  EXPECT_EQ(m.Build(), kTfLiteOk) << m.error();
  EXPECT_EQ(m.Invoke(), kTfLiteOk) << m.error();
  const TfLiteTensor* t = m.tensor(out);
  std::vector<std::string> grams;
  const int n = tflite::GetStringCount(t);
  EXPECT_EQ(m.GetShape(out), (std::vector<int>{n}));
  for (int i = 0; i < n; ++i) {
    const tflite::StringRef r = tflite::GetString(t, i);
    grams.emplace_back(r.str, r.len);
  }
  return grams;
}

using Strings = std::vector<std::string>;

TEST(Lookup_SkipGram, Trigrams) {
  EXPECT_EQ(Grams("The quick brown fox jumps over the lazy dog!", Params(3, 0, false)),
            (Strings{"The quick brown", "quick brown fox", "brown fox jumps", "fox jumps over",
                     "jumps over the", "over the lazy", "the lazy dog!"}));
}

TEST(Lookup_SkipGram, BigramsWithOneSkip) {
  EXPECT_EQ(Grams("a b c d", Params(2, 1, false)), (Strings{"a b", "a c", "b c", "b d", "c d"}));
}

TEST(Lookup_SkipGram, IncludeAllNgrams) {
  EXPECT_EQ(Grams("a b c", Params(2, 0, true)), (Strings{"a b", "a", "b c", "b", "c"}));
}

TEST(Lookup_SkipGram, TfliteWhitespaceSplit) {
  EXPECT_EQ(Grams("a\tb\nc  d ", Params(1, 0, false)), (Strings{"a", "b", "c", "d"}));
  // A leading separator drops the first word, as in TFLite.
  EXPECT_EQ(Grams(" a b", Params(1, 0, false)), (Strings{"b"}));
}

TEST(Lookup_SkipGram, TooFewWords) {
  EXPECT_EQ(Grams("one two", Params(3, 2, true)), Strings{});
  EXPECT_EQ(Grams("", Params(1, 0, false)), Strings{});
}

TEST(Lookup_SkipGram, PrepareErrors) {
  auto build = [](TfLiteType in_type, std::vector<int> shape, const TfLiteSkipGramParams& p) {
    OpModel m;
    m.AddInput({in_type, shape});
    m.AddOutput({kTfLiteString, {}});
    m.SetBuiltinOp(tflite::BuiltinOperator_SKIP_GRAM, tflite::ops::builtin::Register_SKIP_GRAM(),
                   p);
    return m.Build() == kTfLiteOk ? std::string() : m.error();
  };
  EXPECT_EQ(build(kTfLiteString, {1}, Params(2, 1, false)), "");
  auto has = [](const std::string& e, const char* what) {
    return e.find("SKIP_GRAM: ") != std::string::npos && e.find(what) != std::string::npos;
  };
  std::string e = build(kTfLiteString, {1}, Params(0, 1, false));
  EXPECT_TRUE(has(e, "ngram_size must be >= 1, got 0")) << e;
  e = build(kTfLiteString, {1}, Params(2, -1, false));
  EXPECT_TRUE(has(e, "max_skip_size must be >= 0, got -1")) << e;
  e = build(kTfLiteInt32, {1}, Params(2, 1, false));
  EXPECT_TRUE(has(e, "input must be STRING")) << e;
  e = build(kTfLiteString, {2}, Params(2, 1, false));
  EXPECT_TRUE(has(e, "input must hold one sentence")) << e;
}

TEST(Lookup_SkipGram, VersionRange) {
  tflite::ops::builtin::BuiltinOpResolver resolver;
  EXPECT_NE(resolver.FindOp(tflite::BuiltinOperator_SKIP_GRAM, 1), nullptr);
  EXPECT_EQ(resolver.FindOp(tflite::BuiltinOperator_SKIP_GRAM, 2), nullptr);
}

}  // namespace
}  // namespace octet
