// octet::Shape: inline storage up to kInlineRank dimensions, heap beyond, the same behaviour
// either way.
#include "kernels/shape.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace octet {
namespace {

std::vector<int> Dims(int rank) {
  std::vector<int> d(rank);
  std::iota(d.begin(), d.end(), 2);  // 2, 3, 4, ...
  return d;
}

TEST(Shape, EveryRankKeepsItsDimensions) {
  for (int rank = 0; rank <= 9; ++rank) {
    const std::vector<int> d = Dims(rank);
    const Shape s(d);
    EXPECT_EQ(s.rank(), rank);
    EXPECT_EQ(s.ToVector(), d);
    int64_t product = 1;
    for (int v : d) product *= v;
    EXPECT_EQ(s.FlatSize(), product) << "rank " << rank;
  }
}

TEST(Shape, CopiesAndMovesAreIndependent) {
  for (int rank : {3, Shape::kInlineRank, Shape::kInlineRank + 2}) {
    Shape a(Dims(rank));
    Shape b = a;
    b.dim(0) = 100;
    EXPECT_EQ(a.dim(0), 2);
    EXPECT_EQ(b.dim(0), 100);
    Shape c = std::move(b);
    EXPECT_EQ(c.dim(0), 100);
    EXPECT_EQ(c.rank(), rank);
    a = c;
    EXPECT_EQ(a, c);
    a = a;  // self-assignment keeps the shape
    EXPECT_EQ(a, c);
  }
}

TEST(Shape, ExtendedSubShapeAndOffset) {
  const Shape s{2, 3};
  EXPECT_EQ(s.Extended(4).ToVector(), (std::vector<int>{1, 1, 2, 3}));
  EXPECT_EQ(Shape(Dims(8)).Extended(9).dim(0), 1);
  EXPECT_EQ(Shape(Dims(8)).SubShape(2, 8).ToVector(), (std::vector<int>{4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(Shape(Dims(5)).SubShape(1, 3).ToVector(), (std::vector<int>{3, 4}));
  const Shape nhwc{2, 3, 4, 5};
  EXPECT_EQ(nhwc.Offset(1, 2, 3, 4), ((1 * 3 + 2) * 4 + 3) * 5 + 4);
  EXPECT_EQ(nhwc.SizeBetween(1, 3), 12);
}

TEST(Shape, EqualityComparesRankAndDimensions) {
  EXPECT_EQ(Shape({1, 2}), Shape(std::vector<int>{1, 2}));
  EXPECT_NE(Shape({1, 2}), Shape({1, 2, 1}));
  EXPECT_NE(Shape({1, 2}), Shape({2, 1}));
  EXPECT_EQ(Shape(), Shape(std::vector<int>{}));
  EXPECT_EQ(Shape().FlatSize(), 1);
}

}  // namespace
}  // namespace octet
