// SSD detection post-processing as TFLite's TFLite_Detection_PostProcess custom op: box
// decoding from center-size encodings against anchors, then non-max suppression, either
// "fast" (class-agnostic, on each anchor's best class score) or "regular" (per class, then
// the best across classes). Pure math on float arrays; the kernel dequantizes beforehand.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

namespace octet::reference::detection {

struct CenterSize {
  float y, x, h, w;
};
struct BoxCorner {
  float ymin, xmin, ymax, xmax;
};

// ycenter = y / y_scale * anchor.h + anchor.y, half_h = 0.5 exp(h / h_scale) anchor.h (and
// likewise for x/w), all in double and rounded to float once, as TFLite.
inline BoxCorner Decode(const CenterSize &box, const CenterSize &anchor, const CenterSize &scale) {
  const double yc = static_cast<double>(box.y) / scale.y * anchor.h + anchor.y;
  const double xc = static_cast<double>(box.x) / scale.x * anchor.w + anchor.x;
  const double hh = 0.5 * std::exp(static_cast<double>(box.h) / scale.h) * anchor.h;
  const double hw = 0.5 * std::exp(static_cast<double>(box.w) / scale.w) * anchor.w;
  const float ycenter = static_cast<float>(yc), xcenter = static_cast<float>(xc);
  const float half_h = static_cast<float>(hh), half_w = static_cast<float>(hw);
  return {ycenter - half_h, xcenter - half_w, ycenter + half_h, xcenter + half_w};
}

// Intersection over union in float; 0 when either box has no area. (Degenerate boxes are
// accepted, as TFLite; TFLite Micro rejects boxes with ymin >= ymax or xmin >= xmax.)
inline float IntersectionOverUnion(const BoxCorner &a, const BoxCorner &b) {
  const float area_a = (a.ymax - a.ymin) * (a.xmax - a.xmin);
  const float area_b = (b.ymax - b.ymin) * (b.xmax - b.xmin);
  if (area_a <= 0 || area_b <= 0) return 0.0f;
  const float ih = std::max(std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin), 0.0f);
  const float iw = std::max(std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin), 0.0f);
  const float inter = ih * iw;
  return inter / (area_a + area_b - inter);
}

// True when score a ranks before score b in a decreasing order: a > b, and a NaN ranks after
// every number (a NaN score is never a detection: it fails the score threshold). Unlike a
// bare `>`, this is a strict weak order with NaN, which std::sort and friends require.
inline bool ScoreRanksBefore(float a, float b) {
  return a > b || (std::isnan(b) && !std::isnan(a));
}

// Indices of `values` by decreasing value; equal values keep index order (stable), as
// TFLite's DecreasingArgSort (NMS candidates) does.
inline std::vector<int> DecreasingOrder(const std::vector<float> &values) {
  std::vector<int> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&values](int i, int j) { return ScoreRanksBefore(values[i], values[j]); });
  return order;
}

// Greedy NMS of one score per box: boxes scoring >= score_threshold, by decreasing score,
// each suppressing later boxes overlapping it by IoU > iou_threshold; at most
// max_detections indices (into `boxes`) are returned, best first. The candidates are laid out
// as arrays in score order so that the suppression pass, whose decision for each pair is
// independent of the others, runs branch-free (the compiler vectorizes it); every IoU that
// decides anything is computed exactly as IntersectionOverUnion computes it.
inline std::vector<int> NonMaxSuppressionSingleClass(const std::vector<BoxCorner> &boxes,
                                                     const std::vector<float> &scores,
                                                     float score_threshold, float iou_threshold,
                                                     int max_detections) {
  std::vector<int> kept;
  std::vector<float> kept_scores;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (scores[i] >= score_threshold) {
      kept.push_back(static_cast<int>(i));
      kept_scores.push_back(scores[i]);
    }
  }
  const std::vector<int> order = DecreasingOrder(kept_scores);
  const size_t n = order.size();
  std::vector<float> ymin(n), xmin(n), ymax(n), xmax(n), area(n);
  for (size_t k = 0; k < n; ++k) {
    const BoxCorner &b = boxes[kept[order[k]]];
    ymin[k] = b.ymin;
    xmin[k] = b.xmin;
    ymax[k] = b.ymax;
    xmax[k] = b.xmax;
    area[k] = (b.ymax - b.ymin) * (b.xmax - b.xmin);
  }
  std::vector<uint8_t> active(n, 1);
  std::vector<int> selected;
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<int>(selected.size()) >= max_detections) break;
    if (!active[i]) continue;
    selected.push_back(kept[order[i]]);
    const float ay0 = ymin[i], ax0 = xmin[i], ay1 = ymax[i], ax1 = xmax[i], a_area = area[i];
    // With a box of no area the IoU is 0: suppression then only if 0 > iou_threshold.
    const unsigned zero_suppresses = 0.0f > iou_threshold;
    const unsigned a_degenerate = a_area <= 0;
    for (size_t j = i + 1; j < n; ++j) {
      const float ih = std::max(std::min(ay1, ymax[j]) - std::max(ay0, ymin[j]), 0.0f);
      const float iw = std::max(std::min(ax1, xmax[j]) - std::max(ax0, xmin[j]), 0.0f);
      const float inter = ih * iw;
      const float ratio = inter / (a_area + area[j] - inter);
      const unsigned degenerate = a_degenerate | static_cast<unsigned>(area[j] <= 0);
      const unsigned suppress = (degenerate & zero_suppresses) |
                                ((degenerate ^ 1u) & static_cast<unsigned>(ratio > iou_threshold));
      active[j] = static_cast<uint8_t>(active[j] & (suppress ^ 1u));
    }
  }
  return selected;
}

// TFLite's DecreasingPartialArgSort: the first `k` indices of `values` by decreasing value.
// For k = 1 the first maximum; otherwise std::partial_sort of 0..n-1, which leaves ties in
// whatever order that algorithm does: the order TFLite (built with the same C++ library)
// reports for tied scores, where TFLite Micro's stable sort differs. Without NaN this is
// exactly TFLite's order; NaN ranks last (ScoreRanksBefore).
// The first maximum of values[0, n) in ScoreRanksBefore's order: the first index holding the
// largest non-NaN value, 0 when every value is NaN. Two branch-free passes (the largest
// value over 8 independent lanes, then its first index) instead of one scan whose
// compare-and-branch the scores mispredict. (The lanes may keep -0 where a scan keeps +0;
// the second pass finds either by ==, as the scan's first maximum is the first zero.)
inline int FirstMaximum(const float *values, int n) {
  constexpr float kLowest = -std::numeric_limits<float>::infinity();
  float lanes[8] = {kLowest, kLowest, kLowest, kLowest, kLowest, kLowest, kLowest, kLowest};
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int l = 0; l < 8; ++l) lanes[l] = values[i + l] > lanes[l] ? values[i + l] : lanes[l];
  }
  float largest = kLowest;
  for (; i < n; ++i) largest = values[i] > largest ? values[i] : largest;
  for (float lane : lanes) largest = lane > largest ? lane : largest;
  for (int j = 0; j < n; ++j) {
    if (values[j] == largest) return j;
  }
  return 0;  // all NaN
}

inline std::vector<int> DecreasingPartialOrder(const float *values, int n, int k) {
  if (k == 1) return {FirstMaximum(values, n)};
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [values](int i, int j) { return ScoreRanksBefore(values[i], values[j]); });
  order.resize(static_cast<size_t>(k));
  return order;
}

struct NmsParams {
  int max_detections = 0;
  int max_classes_per_detection = 0;  // fast NMS
  int detections_per_class = 100;     // regular NMS
  float score_threshold = 0;
  float iou_threshold = 0;
  int num_classes = 0;
};

// Outputs, sized [max_detections * max_classes_per_detection] boxes/classes/scores; slots
// past the detections are zero.
struct Detections {
  std::vector<BoxCorner> boxes;
  std::vector<float> classes, scores;
  int num_detections = 0;
};

// scores: [num_boxes, num_classes + label_offset] row-major, label_offset 0 or 1 (a leading
// background class that is ignored).
inline void FastNms(const std::vector<BoxCorner> &boxes, const float *scores, int label_offset,
                    const NmsParams &p, Detections *out) {
  const int num_boxes = static_cast<int>(boxes.size());
  const int stride = p.num_classes + label_offset;
  const int per_anchor = std::min(p.max_classes_per_detection, p.num_classes);
  // Each anchor's best classes, per_anchor of them per row.
  std::vector<int> best_classes(static_cast<size_t>(num_boxes) * per_anchor);
  std::vector<float> max_scores(num_boxes);
  for (int b = 0; b < num_boxes; ++b) {
    const float *row = scores + static_cast<int64_t>(b) * stride + label_offset;
    int *best = best_classes.data() + static_cast<size_t>(b) * per_anchor;
    if (per_anchor == 1) {
      best[0] = FirstMaximum(row, p.num_classes);
    } else {
      const std::vector<int> order = DecreasingPartialOrder(row, p.num_classes, per_anchor);
      std::copy(order.begin(), order.end(), best);
    }
    max_scores[b] = row[best[0]];
  }
  const std::vector<int> selected = NonMaxSuppressionSingleClass(
      boxes, max_scores, p.score_threshold, p.iou_threshold, p.max_detections);
  int slot_row = 0;
  for (int b : selected) {
    const float *row = scores + static_cast<int64_t>(b) * stride + label_offset;
    const int *best = best_classes.data() + static_cast<size_t>(b) * per_anchor;
    for (int k = 0; k < per_anchor; ++k) {
      const int slot = slot_row * p.max_classes_per_detection + k;
      out->boxes[slot] = boxes[b];
      out->classes[slot] = static_cast<float>(best[k]);
      out->scores[slot] = row[best[k]];
    }
    ++slot_row;
  }
  out->num_detections = slot_row;
}

inline void RegularNms(const std::vector<BoxCorner> &boxes, const float *scores, int label_offset,
                       const NmsParams &p, Detections *out) {
  const int num_boxes = static_cast<int>(boxes.size());
  const int stride = p.num_classes + label_offset;
  struct Candidate {
    int box, cls;
    float score;
  };
  std::vector<Candidate> best;  // the running top max_detections, best first
  std::vector<float> class_scores(num_boxes);
  for (int c = 0; c < p.num_classes; ++c) {
    for (int b = 0; b < num_boxes; ++b) {
      class_scores[b] = scores[static_cast<int64_t>(b) * stride + c + label_offset];
    }
    const std::vector<int> selected = NonMaxSuppressionSingleClass(
        boxes, class_scores, p.score_threshold, p.iou_threshold, p.detections_per_class);
    // Merge as TFLite: the previous best first, then this class's picks, and the top
    // max_detections of that list by TFLite's partial sort.
    std::vector<Candidate> merged = best;
    for (int b : selected) merged.push_back({b, c, class_scores[b]});
    std::vector<float> merged_scores;
    for (const Candidate &m : merged) merged_scores.push_back(m.score);
    const int n = static_cast<int>(merged.size());
    const std::vector<int> top =
        n == 0 ? std::vector<int>()
               : DecreasingPartialOrder(merged_scores.data(), n, std::min(n, p.max_detections));
    best.clear();
    for (int i : top) best.push_back(merged[static_cast<size_t>(i)]);
  }
  for (size_t i = 0; i < best.size(); ++i) {
    out->boxes[i] = boxes[best[i].box];
    out->classes[i] = static_cast<float>(best[i].cls);
    out->scores[i] = best[i].score;
  }
  out->num_detections = static_cast<int>(best.size());
}

}  // namespace octet::reference::detection
