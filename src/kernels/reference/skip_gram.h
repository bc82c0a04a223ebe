// SKIP_GRAM as TFLite computes it: the sentence is split into words at whitespace, then every
// n-gram of `ngram_size` words (or, with include_all_ngrams, of 1..ngram_size words) whose
// consecutive words are at most max_skip_size words apart is emitted, in TFLite's order
// (by first word, then depth-first over the following words).
//
// The split is TFLite's, quirks included: a separator is a whitespace byte after the first
// byte, and a piece whose first byte is whitespace is dropped whole, so a sentence that
// starts with whitespace loses its first word (" a b" gives just "b").
#pragma once

#include <cctype>
#include <string_view>
#include <vector>

namespace octet::reference {

inline bool SkipGramSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

inline std::vector<std::string_view> SkipGramWords(std::string_view text) {
  std::vector<std::string_view> words;
  size_t start = 0;
  for (size_t i = 1; i < text.size(); ++i) {
    if (!SkipGramSpace(text[i])) continue;
    if (i > start && !SkipGramSpace(text[start])) words.push_back(text.substr(start, i - start));
    start = i + 1;
  }
  if (text.size() > start) words.push_back(text.substr(start));
  return words;
}

// Calls emit(indices, count) for each n-gram (word indices into `num_words` words).
// ngram_size >= 1 and max_skip_size >= 0.
template <typename Emit>
void SkipGrams(int num_words, int ngram_size, int max_skip_size, bool include_all_ngrams,
               Emit&& emit) {
  if (num_words < ngram_size) return;
  // stack[0..depth) are the chosen words; stack[0] starts on word 0 already chosen.
  std::vector<int> stack(static_cast<size_t>(ngram_size), 0);
  int depth = 1;
  auto can_extend = [&]() {
    if (depth >= ngram_size || stack[depth] + 1 >= num_words) return false;
    return depth == 0 || stack[depth] - stack[depth - 1] <= max_skip_size;
  };
  auto wanted = [&](int size) {
    if (size <= 0) return false;
    return include_all_ngrams ? size <= ngram_size : size == ngram_size;
  };
  while (depth >= 0) {
    if (can_extend()) {
      ++stack[depth];
      ++depth;
      if (depth < ngram_size) stack[depth] = stack[depth - 1];
    } else {
      if (wanted(depth)) emit(stack.data(), depth);
      --depth;
    }
  }
}

}  // namespace octet::reference
