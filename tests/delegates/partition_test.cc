#include "delegates/partition.h"

#include <gtest/gtest.h>

#include <random>

#include "util/fake_graph.h"

namespace octet {
namespace {

using testing::FakeGraph;

PartitionGraph ViewOf(FakeGraph& g) {
  PartitionGraph p;
  p.num_tensors = g.num_tensors();
  for (size_t i = 0; i < g.num_nodes(); ++i) p.plan.push_back(static_cast<int>(i));
  p.node = [&g](int id) -> const TfLiteNode& { return g.node(id); };
  p.graph_outputs = g.outputs();
  return p;
}

// Seed 001, 1.2.4: f(x) = sin(x) + x + sin(x*2) with SIN delegated gives
// [SIN1], [ADD1, MUL], [SIN2], [ADD2].
TEST(Partition, SeedSinGraph) {
  // tensors: 0 x, 1 two (const), 2 sin1, 3 add1, 4 mul, 5 sin2, 6 y
  FakeGraph g({4, 4, 4, 4, 4, 4, 4});
  g.inputs_ = {0};
  g.outputs_ = {6};
  const int sin1 = g.AddNode({0}, {2});
  const int add1 = g.AddNode({2, 0}, {3});
  const int mul = g.AddNode({0, 1}, {4});
  const int sin2 = g.AddNode({4}, {5});
  const int add2 = g.AddNode({3, 5}, {6});
  auto subsets = PartitionIntoIndependentNodeSubsets(ViewOf(g), {sin1, sin2});
  ASSERT_EQ(subsets.size(), 4u);
  EXPECT_TRUE(subsets[0].delegated);
  EXPECT_EQ(subsets[0].nodes, std::vector<int>({sin1}));
  EXPECT_FALSE(subsets[1].delegated);
  EXPECT_EQ(subsets[1].nodes, std::vector<int>({add1, mul}));
  EXPECT_TRUE(subsets[2].delegated);
  EXPECT_EQ(subsets[2].nodes, std::vector<int>({sin2}));
  EXPECT_FALSE(subsets[3].delegated);
  EXPECT_EQ(subsets[3].nodes, std::vector<int>({add2}));
  // Boundary tensors of the delegated subsets.
  EXPECT_EQ(subsets[0].input_tensors, std::vector<int>({0}));
  EXPECT_EQ(subsets[0].output_tensors, std::vector<int>({2}));
  EXPECT_EQ(subsets[2].input_tensors, std::vector<int>({4}));
  EXPECT_EQ(subsets[2].output_tensors, std::vector<int>({5}));
  EXPECT_EQ(subsets[3].output_tensors, std::vector<int>({6}));
}

TEST(Partition, ChainOfDelegatedNodesIsOneSubset) {
  FakeGraph g({4, 4, 4, 4});
  g.inputs_ = {0};
  g.outputs_ = {3};
  g.AddNode({0}, {1});
  g.AddNode({1}, {2});
  g.AddNode({2}, {3});
  auto subsets = PartitionIntoIndependentNodeSubsets(ViewOf(g), {0, 1, 2});
  ASSERT_EQ(subsets.size(), 1u);
  EXPECT_EQ(subsets[0].nodes, std::vector<int>({0, 1, 2}));
  EXPECT_EQ(subsets[0].input_tensors, std::vector<int>({0}));
  EXPECT_EQ(subsets[0].output_tensors, std::vector<int>({3}));
}

}  // namespace
}  // namespace octet

namespace octet {
namespace {

// A random DAG in topological (plan) order: node i reads graph inputs or outputs of earlier
// nodes. Tensor t < num_inputs is a graph input; node i writes tensor num_inputs + i.
struct RandomDag {
  int num_inputs = 0;
  std::vector<std::vector<int>> reads;  // tensors read by each node
  std::vector<bool> delegated;
};

RandomDag MakeDag(std::mt19937& rng, int n) {
  RandomDag d;
  d.num_inputs = 1 + static_cast<int>(rng() % 2);
  for (int i = 0; i < n; ++i) {
    std::vector<int> in;
    const int fan_in = 1 + static_cast<int>(rng() % 2);
    for (int k = 0; k < fan_in; ++k) in.push_back(static_cast<int>(rng() % (d.num_inputs + i)));
    d.reads.push_back(in);
    d.delegated.push_back(rng() % 2 == 0);
  }
  return d;
}

// Fewest subsets any valid partition can have when, as in the execution plan, the first
// node runs in the first subset: breadth-first search over sets of executed nodes, taking
// at each step ANY non-empty single-kind set of nodes runnable in that step.
int BruteForceMinSubsets(const RandomDag& d) {
  const int n = static_cast<int>(d.reads.size());
  auto producer = [&](int t) { return t < d.num_inputs ? -1 : t - d.num_inputs; };
  const uint32_t all = (1u << n) - 1;
  std::vector<int> dist(all + 1, -1);
  std::vector<uint32_t> frontier = {0};
  dist[0] = 0;
  while (!frontier.empty()) {
    std::vector<uint32_t> next;
    for (uint32_t done : frontier) {
      if (done == all) return dist[done];
      for (int kind = 0; kind < 2; ++kind) {
        // Every subset S of not-done nodes of this kind; valid if each node's producers are
        // done or in S (plan order inside S then respects data flow).
        uint32_t candidates = 0;
        for (int i = 0; i < n; ++i) {
          if (!(done >> i & 1) && d.delegated[i] == (kind == 1)) candidates |= 1u << i;
        }
        for (uint32_t s = candidates; s != 0; s = (s - 1) & candidates) {
          if (done == 0 && !(s & 1u)) continue;  // the plan's first node runs first
          bool ok = true;
          for (int i = 0; ok && i < n; ++i) {
            if (!(s >> i & 1)) continue;
            for (int t : d.reads[i]) {
              const int p = producer(t);
              if (p >= 0 && !((done | s) >> p & 1)) ok = false;
            }
          }
          const uint32_t after = done | s;
          if (ok && dist[after] < 0) {
            dist[after] = dist[done] + 1;
            next.push_back(after);
          }
        }
      }
    }
    frontier = std::move(next);
  }
  return -1;
}

TEST(Partition, RandomDagsAreValidAndMinimal) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 8);
    const RandomDag d = MakeDag(rng, n);
    std::vector<size_t> bytes(d.num_inputs + n, 4);
    FakeGraph g(bytes);
    for (int t = 0; t < d.num_inputs; ++t) g.inputs_.push_back(t);
    g.outputs_ = {d.num_inputs + n - 1};
    std::vector<int> delegated;
    for (int i = 0; i < n; ++i) {
      g.AddNode(d.reads[i], {d.num_inputs + i});
      if (d.delegated[i]) delegated.push_back(i);
    }
    const auto subsets = PartitionIntoIndependentNodeSubsets(ViewOf(g), delegated);

    // Valid: every node exactly once, single-kind subsets, producers run before consumers.
    std::vector<int> position(n, -1);
    int order = 0;
    for (const NodeSubset& s : subsets) {
      ASSERT_FALSE(s.nodes.empty());
      for (int id : s.nodes) {
        ASSERT_EQ(position[id], -1) << "node " << id << " placed twice";
        position[id] = order++;
        EXPECT_EQ(d.delegated[id], s.delegated) << "trial " << trial;
      }
    }
    for (int i = 0; i < n; ++i) {
      ASSERT_GE(position[i], 0) << "node " << i << " missing";
      for (int t : d.reads[i]) {
        if (t >= d.num_inputs) {
          EXPECT_LT(position[t - d.num_inputs], position[i]) << "trial " << trial;
        }
      }
    }
    // Minimal: no valid partition (starting, like the plan, with its first node) is shorter.
    EXPECT_EQ(static_cast<int>(subsets.size()), BruteForceMinSubsets(d)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace octet
