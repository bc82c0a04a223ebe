#include "memory/arena_planner.h"

#include <gtest/gtest.h>

#include <random>

#include "util/fake_graph.h"

namespace octet {
namespace {

using testing::FakeGraph;

// in(0) -> A -> t1 -> B -> t2 -> C -> out(3); t4 is A's temporary.
TEST(ArenaPlanner, LifetimesOfAChain) {
  FakeGraph g({64, 64, 64, 64, 32});
  g.inputs_ = {0};
  g.outputs_ = {3};
  g.AddNode({0}, {1}, {4});
  g.AddNode({1}, {2});
  g.AddNode({2}, {3});
  auto life = ComputeLifetimes(g);
  EXPECT_EQ(life[0].first, 0);
  EXPECT_EQ(life[0].last, 2);  // graph inputs are preserved to the end
  EXPECT_EQ(life[1].first, 0);
  EXPECT_EQ(life[1].last, 1);
  EXPECT_EQ(life[2].first, 1);
  EXPECT_EQ(life[2].last, 2);
  EXPECT_EQ(life[3].first, 2);
  EXPECT_EQ(life[3].last, 2);  // graph output lives to the end
  EXPECT_EQ(life[4].first, 0);
  EXPECT_EQ(life[4].last, 0);  // temporaries live during their node only
}

TEST(ArenaPlanner, ChainReusesMemory) {
  // t1 and t3 never live at the same time, so they can share bytes.
  FakeGraph g({64, 128, 128, 128});
  g.inputs_ = {0};
  g.outputs_ = {3};
  g.AddNode({0}, {1});
  g.AddNode({1}, {2});
  g.AddNode({2}, {3});
  ArenaPlanner planner(nullptr, 64);
  ASSERT_TRUE(planner.Plan(g, g.num_nodes(), nullptr));
  const auto& off = planner.offsets();
  EXPECT_NE(off[1], off[2]);
  EXPECT_NE(off[2], off[3]);
  EXPECT_EQ(off[1], off[3]);
  // Lower bound: at node 1 we hold in(64) + t1 + t2; at node 2 in + t2 + t3.
  EXPECT_EQ(planner.stats().lower_bound_bytes, 64u + 128 + 128);
  EXPECT_EQ(planner.stats().arena_bytes, 64u + 128 + 128);
  // Data pointers are inside the arena and aligned.
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(g.tensors_[t].data.raw) % 64, 0u);
  }
}

TEST(ArenaPlanner, BestFitPicksTheSmallestGap) {
  // At node 0 everything is live: A(200)@0, B(100)@200, C(60)@300, D(50)@360. From node 1
  // on, A and C are dead, leaving gaps [0,200) and [300,360); a 40-byte block living at
  // nodes 1..3 goes into the smaller one.
  std::vector<Block> blocks = {{200, 0, 0}, {100, 0, 3}, {60, 0, 0}, {50, 0, 3}, {40, 1, 3}};
  std::vector<size_t> offsets;
  const size_t high_water = AssignOffsets(blocks, 1, &offsets);
  EXPECT_EQ(offsets[0], 0u);
  EXPECT_EQ(offsets[1], 200u);
  EXPECT_EQ(offsets[2], 300u);
  EXPECT_EQ(offsets[3], 360u);
  EXPECT_EQ(offsets[4], 300u);
  EXPECT_EQ(high_water, 410u);
  EXPECT_EQ(LiveBytesLowerBound(blocks), 410u);
}

TEST(ArenaPlanner, GapBetweenBlocksIsReused) {
  // x[0..1] at 0 (64), y[0..3] at 64 (64), z[2..3] fits where x was.
  std::vector<Block> blocks = {{64, 0, 3}, {64, 0, 1}, {64, 2, 3}};
  std::vector<size_t> offsets;
  EXPECT_EQ(AssignOffsets(blocks, 64, &offsets), 128u);
  EXPECT_EQ(offsets[1], offsets[2]);
}

TEST(ArenaPlanner, VariablesGoToThePersistentArenaAndKeepTheirValues) {
  FakeGraph g({16, 16, 16});
  g.inputs_ = {0};
  g.outputs_ = {2};
  g.variables_ = {1};
  g.tensors_[1].allocation_type = kTfLiteArenaRwPersistent;
  g.AddNode({0, 1}, {2});
  ArenaPlanner planner(nullptr, 16);
  ASSERT_TRUE(planner.Plan(g, 1, nullptr));  // new persistent arena: zeroed
  EXPECT_EQ(planner.stats().persistent_bytes, 16u);
  char* state = g.tensors_[1].data.raw;
  ASSERT_NE(state, nullptr);
  EXPECT_EQ(state[3], 0);
  state[3] = 42;
  ASSERT_TRUE(planner.Plan(g, 1, nullptr));  // same size: state survives a re-plan
  EXPECT_EQ(g.tensors_[1].data.raw[3], 42);
}

// The arenas are charged to the budget with what they really allocate; a plan that does not
// fit is refused with the sizes named, and the budget and the tensors keep the old plan.
TEST(ArenaPlanner, PlanBeyondTheMemoryBudgetIsRefusedAndKeepsThePreviousPlan) {
  FakeGraph g({1000, 1000, 1000});
  g.inputs_ = {0};
  g.outputs_ = {2};
  g.AddNode({0}, {1});
  g.AddNode({1}, {2});
  MemoryBudget budget(8192);
  {
    ArenaPlanner planner(&budget, 64);
    std::string error;
    ASSERT_TRUE(planner.Plan(g, g.num_nodes(), &error)) << error;
    const size_t held = budget.used();
    EXPECT_GE(held, planner.stats().arena_bytes);
    EXPECT_LE(held, planner.stats().arena_bytes + 2 * (64 + 64));
    char* first = g.tensors_[0].data.raw;
    g.tensors_[0].bytes = 100000;  // the input grew past what the budget allows
    EXPECT_FALSE(planner.Plan(g, g.num_nodes(), &error));
    EXPECT_NE(error.find("memory limit of 8.00 KiB"), std::string::npos) << error;
    EXPECT_EQ(budget.used(), held);
    EXPECT_EQ(g.tensors_[0].data.raw, first);
    g.tensors_[0].bytes = 1000;
    ASSERT_TRUE(planner.Plan(g, g.num_nodes(), &error)) << error;
    EXPECT_EQ(budget.used(), held);
  }
  EXPECT_EQ(budget.used(), 0u);  // the planner gives its arenas back
  EXPECT_GT(budget.peak(), 0u);
}

TEST(MemoryBudget, ParsesAndFormatsSizes) {
  size_t bytes = 0;
  ASSERT_TRUE(ParseByteSize("123", &bytes));
  EXPECT_EQ(bytes, 123u);
  ASSERT_TRUE(ParseByteSize("64k", &bytes));
  EXPECT_EQ(bytes, 65536u);
  ASSERT_TRUE(ParseByteSize("512M", &bytes));
  EXPECT_EQ(bytes, size_t{512} << 20);
  ASSERT_TRUE(ParseByteSize("1.5GiB", &bytes));
  EXPECT_EQ(bytes, size_t{3} << 29);
  ASSERT_TRUE(ParseByteSize("unlimited", &bytes));
  EXPECT_EQ(bytes, MemoryBudget::kUnlimited);
  for (const char* bad : {"", "-1", "12Q", "nan", "inf", "1e30G", "G", " 5"}) {
    EXPECT_FALSE(ParseByteSize(bad, &bytes)) << bad;
  }
  EXPECT_EQ(FormatByteSize(100), "100 B");
  EXPECT_EQ(FormatByteSize(size_t{3} << 29), "1.50 GiB");
}

TEST(MemoryBudget, ChargesRechargesAndReleases) {
  MemoryBudget budget(100);
  EXPECT_TRUE(budget.TryCharge(60));
  EXPECT_FALSE(budget.TryCharge(41));
  EXPECT_EQ(budget.used(), 60u);
  EXPECT_TRUE(budget.TryRecharge(60, 100));  // growth of 40 fits
  EXPECT_FALSE(budget.TryRecharge(100, 101));
  EXPECT_TRUE(budget.TryRecharge(100, 10));
  EXPECT_EQ(budget.used(), 10u);
  EXPECT_EQ(budget.peak(), 100u);
  budget.Release(10);
  EXPECT_EQ(budget.available(), 100u);
}

// Property check on random DAGs: no two tensors that are live at the same node overlap in
// memory, and the arena is never below the live-bytes lower bound.
TEST(ArenaPlanner, RandomGraphsNeverOverlapLiveTensors) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int num_nodes = 1 + rng() % 12;
    std::vector<size_t> bytes;
    const int num_inputs = 1 + rng() % 2;
    for (int i = 0; i < num_inputs; ++i) bytes.push_back(1 + rng() % 300);
    for (int i = 0; i < num_nodes; ++i) bytes.push_back(1 + rng() % 300);
    FakeGraph g(bytes);
    for (int i = 0; i < num_inputs; ++i) g.inputs_.push_back(i);
    for (int n = 0; n < num_nodes; ++n) {
      const int available = num_inputs + n;
      std::vector<int> in = {static_cast<int>(rng() % available)};
      if (rng() % 2) in.push_back(static_cast<int>(rng() % available));
      g.AddNode(in, {num_inputs + n});
    }
    g.outputs_ = {num_inputs + num_nodes - 1};
    ArenaPlanner planner(nullptr, 8);
    ASSERT_TRUE(planner.Plan(g, g.num_nodes(), nullptr));
    const auto life = ComputeLifetimes(g);
    EXPECT_GE(planner.stats().arena_bytes, planner.stats().lower_bound_bytes);
    for (size_t a = 0; a < bytes.size(); ++a) {
      for (size_t b = a + 1; b < bytes.size(); ++b) {
        if (life[a].first == kNotUsed || life[b].first == kNotUsed) continue;
        const bool live_together = !(life[a].last < life[b].first || life[b].last < life[a].first);
        if (!live_together) continue;
        const char* pa = g.tensors_[a].data.raw;
        const char* pb = g.tensors_[b].data.raw;
        const bool disjoint = pa + bytes[a] <= pb || pb + bytes[b] <= pa;
        EXPECT_TRUE(disjoint) << "trial " << trial << " tensors " << a << " and " << b;
      }
    }
  }
}

}  // namespace
}  // namespace octet
