// The array-based, branch-free NonMaxSuppressionSingleClass against the textbook greedy loop
// written here with IntersectionOverUnion (each candidate in score order, suppressing later
// active candidates one pair at a time): random boxes with heavy overlap, degenerate boxes
// (zero or negative area), tied scores, thresholds at both ends; the same selections.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "kernels/reference/detection_postprocess.h"

namespace octet::reference::detection {
namespace {

std::vector<int> GreedyNms(const std::vector<BoxCorner>& boxes, const std::vector<float>& scores,
                           float score_threshold, float iou_threshold, int max_detections) {
  std::vector<int> kept;
  std::vector<float> kept_scores;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (scores[i] >= score_threshold) {
      kept.push_back(static_cast<int>(i));
      kept_scores.push_back(scores[i]);
    }
  }
  const std::vector<int> order = DecreasingOrder(kept_scores);
  std::vector<bool> active(order.size(), true);
  std::vector<int> selected;
  for (size_t i = 0; i < order.size(); ++i) {
    if (static_cast<int>(selected.size()) >= max_detections) break;
    if (!active[i]) continue;
    const int bi = kept[order[i]];
    selected.push_back(bi);
    for (size_t j = i + 1; j < order.size(); ++j) {
      if (active[j] && IntersectionOverUnion(boxes[bi], boxes[kept[order[j]]]) > iou_threshold) {
        active[j] = false;
      }
    }
  }
  return selected;
}

TEST(NonMaxSuppression, EqualsTheGreedyLoop) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coord(0.f, 1.f), size(-0.05f, 0.4f);
  const float thresholds[] = {0.f, 0.3f, 0.5f, 0.99f, 1.f};
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 300);
    std::vector<BoxCorner> boxes(static_cast<size_t>(n));
    std::vector<float> scores(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const float y = coord(rng), x = coord(rng);
      boxes[i] = {y, x, y + size(rng), x + (rng() % 8 == 0 ? 0.f : size(rng))};
      scores[i] = static_cast<float>(rng() % 50) / 49.f;  // many ties
    }
    const float score_threshold = static_cast<float>(rng() % 5) / 5.f;
    const float iou_threshold = thresholds[rng() % 5];
    const int max_detections = 1 + static_cast<int>(rng() % 120);
    ASSERT_EQ(
        NonMaxSuppressionSingleClass(boxes, scores, score_threshold, iou_threshold, max_detections),
        GreedyNms(boxes, scores, score_threshold, iou_threshold, max_detections))
        << "trial " << trial;
  }
}

}  // namespace
}  // namespace octet::reference::detection
