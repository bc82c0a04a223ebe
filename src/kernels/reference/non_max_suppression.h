// NON_MAX_SUPPRESSION_V4 / V5 on float boxes [y1, x1, y2, x2] (corners in either order):
// greedy selection by score with hard suppression at IoU >= iou_threshold and, when
// sigma > 0, Gaussian soft suppression (score *= exp(-0.5 / sigma * iou^2)) as in TFLite's
// float reference. Candidates are kept in a std::priority_queue filled in index order, so
// equal scores come out in the same order as in TFLite.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <queue>
#include <vector>

namespace octet::reference {

// Intersection over union of boxes i and j; 0 when either box has no area (or both have
// none in common with anything).
inline float BoxIou(const float* boxes, int i, int j) {
  const float* a = boxes + 4 * static_cast<int64_t>(i);
  const float* b = boxes + 4 * static_cast<int64_t>(j);
  const float a_ymin = std::min(a[0], a[2]), a_ymax = std::max(a[0], a[2]);
  const float a_xmin = std::min(a[1], a[3]), a_xmax = std::max(a[1], a[3]);
  const float b_ymin = std::min(b[0], b[2]), b_ymax = std::max(b[0], b[2]);
  const float b_xmin = std::min(b[1], b[3]), b_xmax = std::max(b[1], b[3]);
  const float area_a = (a_ymax - a_ymin) * (a_xmax - a_xmin);
  const float area_b = (b_ymax - b_ymin) * (b_xmax - b_xmin);
  if (area_a <= 0.0f || area_b <= 0.0f) return 0.0f;
  const float inter_h = std::max(std::min(a_ymax, b_ymax) - std::max(a_ymin, b_ymin), 0.0f);
  const float inter_w = std::max(std::min(a_xmax, b_xmax) - std::max(a_xmin, b_xmin), 0.0f);
  const float inter = inter_h * inter_w;
  const float uni = area_a + area_b - inter;
  if (uni == 0.0f) return 0.0f;
  return inter / uni;
}

struct NmsCandidate {
  int index;
  float score;
  // Selections [0, suppress_begin) have already been compared against this candidate.
  int suppress_begin;
  bool operator<(const NmsCandidate& o) const { return score < o.score; }
};

// Writes up to max_output selected box indices (and, when selected_scores is not null,
// their possibly decayed scores); returns how many. Only scores > score_threshold are
// candidates, so NaN scores never enter the queue and its ordering stays well defined.
inline int NonMaxSuppression(const float* boxes, int num_boxes, const float* scores, int max_output,
                             float iou_threshold, float score_threshold, float sigma,
                             int32_t* selected, float* selected_scores) {
  std::priority_queue<NmsCandidate> queue;
  for (int i = 0; i < num_boxes; ++i) {
    if (scores[i] > score_threshold) queue.push({i, scores[i], 0});
  }
  const int limit = std::min(static_cast<int>(queue.size()), max_output);
  const float scale = sigma > 0.0f ? -0.5f / sigma : 0.0f;
  int count = 0;
  while (count < limit && !queue.empty()) {
    NmsCandidate c = queue.top();
    queue.pop();
    const float original = c.score;
    bool hard = false;
    // Recent selections overlap most often: walk them newest first.
    for (int j = count - 1; j >= c.suppress_begin; --j) {
      const float iou = BoxIou(boxes, c.index, selected[j]);
      if (iou >= iou_threshold) {
        hard = true;
        break;
      }
      if (sigma > 0.0f) c.score *= std::exp(scale * iou * iou);
      if (c.score <= score_threshold) break;
    }
    c.suppress_begin = count;
    if (hard) continue;
    if (c.score == original) {
      selected[count] = c.index;
      if (selected_scores != nullptr) selected_scores[count] = c.score;
      ++count;
    }
    // Back into the queue while above the threshold; as in TFLite this includes a candidate
    // just selected, which then meets itself among the selections (IoU 1 for a box with
    // area) and is dropped. The re-push also decides the order of equal scores.
    if (c.score > score_threshold) queue.push(c);
  }
  return count;
}

}  // namespace octet::reference
