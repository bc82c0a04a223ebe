#include "memory/arena_planner.h"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace octet {

std::vector<Lifetime> ComputeLifetimes(GraphInfo& graph) {
  const size_t n = graph.num_tensors();
  const int num_nodes = static_cast<int>(graph.num_nodes());
  const int end = std::max(num_nodes - 1, 0);
  std::vector<Lifetime> life(n);
  auto valid = [n](int t) { return t >= 0 && static_cast<size_t>(t) < n; };
  auto start = [&](int t, int node) {
    if (valid(t) && life[t].first == kNotUsed) life[t].first = node;
  };
  // Tensors that must survive the whole run: never released.
  std::vector<bool> pinned(n, false);
  for (int t : graph.outputs())
    if (valid(t)) pinned[t] = true;
  for (int t : graph.inputs())
    if (valid(t)) pinned[t] = true;
  for (int t : graph.variables())
    if (valid(t)) pinned[t] = true;
  for (int t : graph.inputs()) start(t, 0);
  for (int t : graph.variables()) start(t, 0);

  for (int i = 0; i < num_nodes; ++i) {
    const TfLiteNode& node = graph.node(i);
    for (int j = 0; node.outputs && j < node.outputs->size; ++j) start(node.outputs->data[j], i);
    start(graph.fused_output(static_cast<size_t>(i)), i);
    for (int j = 0; node.inputs && j < node.inputs->size; ++j) {
      const int t = node.inputs->data[j];
      if (!valid(t)) continue;
      start(t, i);  // read before written (only constants; harmless otherwise)
      life[t].last = i;
    }
    for (int j = 0; node.temporaries && j < node.temporaries->size; ++j) {
      const int t = node.temporaries->data[j];
      if (valid(t)) life[t] = {i, i};
    }
  }
  for (size_t t = 0; t < n; ++t) {
    if (life[t].first == kNotUsed) continue;
    if (pinned[t]) {
      life[t].last = end;
    } else if (life[t].last < life[t].first) {
      life[t].last = life[t].first;  // written but never read: needed only by its writer
    }
  }
  return life;
}

namespace {
size_t AlignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }
bool Overlaps(const Block& a, const Block& b) { return !(a.last < b.first || b.last < a.first); }
}  // namespace

size_t AssignOffsets(const std::vector<Block>& blocks, size_t alignment,
                     std::vector<size_t>* offsets) {
  offsets->assign(blocks.size(), 0);
  std::vector<size_t> order(blocks.size());
  std::iota(order.begin(), order.end(), 0);
  // Big, long-lived blocks first: they are the hardest to fit later.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (blocks[a].size != blocks[b].size) return blocks[a].size > blocks[b].size;
    return blocks[a].first < blocks[b].first;
  });
  struct Placed {
    size_t offset, size;
    size_t block;
  };
  std::vector<Placed> placed;  // kept sorted by offset
  size_t high_water = 0;
  for (size_t b : order) {
    const size_t size = AlignUp(blocks[b].size, alignment);
    if (size == 0) continue;
    size_t best = SIZE_MAX, best_gap = SIZE_MAX, cursor = 0;
    for (const Placed& p : placed) {
      if (!Overlaps(blocks[p.block], blocks[b])) continue;
      if (cursor + size <= p.offset && p.offset - cursor < best_gap) {
        best = cursor;
        best_gap = p.offset - cursor;
      }
      cursor = std::max(cursor, p.offset + p.size);
    }
    if (best == SIZE_MAX) best = cursor;
    (*offsets)[b] = best;
    high_water = std::max(high_water, best + size);
    auto it = std::lower_bound(placed.begin(), placed.end(), best,
                               [](const Placed& p, size_t off) { return p.offset < off; });
    placed.insert(it, Placed{best, size, b});
  }
  return high_water;
}

size_t LiveBytesLowerBound(const std::vector<Block>& blocks) {
  int last_node = 0;
  for (const Block& b : blocks) last_node = std::max(last_node, b.last);
  std::vector<size_t> live(static_cast<size_t>(last_node) + 2, 0);
  for (const Block& b : blocks) {
    live[b.first] += b.size;
    live[b.last + 1] -= b.size;  // difference array; unsigned wrap cancels out
  }
  size_t best = 0, running = 0;
  for (size_t v : live) {
    running += v;
    best = std::max(best, running);
  }
  return best;
}

namespace {
// Tail slack: vectorized kernels (XNNPACK's among them) may read, never write, up to
// 16 bytes past the end of a tensor; the last tensor of the arena must allow it.
constexpr size_t kTailSlack = 64;
}  // namespace

size_t ArenaPlanner::BufferBytes(size_t bytes) const {
  return bytes == 0 ? 0 : bytes + alignment_ + kTailSlack;
}

void ArenaPlanner::AlignedBuffer::Resize(size_t bytes, size_t alignment) {
  if (bytes == size && storage) return;
  storage.reset();
  aligned = nullptr;
  size = 0;
  if (bytes == 0) return;
  storage = std::make_unique<char[]>(bytes + alignment + kTailSlack);
  size = bytes;
  const auto raw = reinterpret_cast<uintptr_t>(storage.get());
  aligned = reinterpret_cast<char*>((raw + alignment - 1) / alignment * alignment);
}

ArenaPlanner::~ArenaPlanner() {
  if (budget_ != nullptr) budget_->Release(charged_);
}

bool ArenaPlanner::SetBudget(MemoryBudget* budget) {
  if (charged_ != 0) return false;
  budget_ = budget;
  return true;
}

bool ArenaPlanner::Plan(GraphInfo& graph, size_t prepared_nodes, std::string* error) {
  lifetimes_ = ComputeLifetimes(graph);
  const size_t n = graph.num_tensors();
  offsets_.assign(n, 0);

  // Tensors written by nodes not yet prepared are sized later (dynamically), not here.
  std::vector<bool> produced_late(n, false);
  for (size_t i = prepared_nodes; i < graph.num_nodes(); ++i) {
    const TfLiteNode& node = graph.node(i);
    for (const TfLiteIntArray* list : {node.outputs, node.temporaries}) {
      for (int j = 0; list && j < list->size; ++j) {
        const int t = list->data[j];
        if (t >= 0 && static_cast<size_t>(t) < n) produced_late[t] = true;
      }
    }
  }

  std::vector<Block> arena_blocks, persistent_blocks;
  std::vector<int> arena_tensors, persistent_tensors;
  for (size_t t = 0; t < n; ++t) {
    TfLiteTensor* tensor = graph.tensor(t);
    if (lifetimes_[t].first == kNotUsed || produced_late[t]) continue;
    if (tensor->allocation_type == kTfLiteArenaRw) {
      arena_blocks.push_back({tensor->bytes, lifetimes_[t].first, lifetimes_[t].last});
      arena_tensors.push_back(static_cast<int>(t));
    } else if (tensor->allocation_type == kTfLiteArenaRwPersistent) {
      persistent_blocks.push_back({tensor->bytes, 0, 0});  // all overlap: stacked
      persistent_tensors.push_back(static_cast<int>(t));
    }
  }
  std::vector<size_t> arena_offsets, persistent_offsets;
  PlannerStats stats;
  stats.arena_bytes = AssignOffsets(arena_blocks, alignment_, &arena_offsets);
  stats.lower_bound_bytes = LiveBytesLowerBound(arena_blocks);
  stats.persistent_bytes = AssignOffsets(persistent_blocks, alignment_, &persistent_offsets);
  stats.planned_tensors = arena_tensors.size() + persistent_tensors.size();

  // Charged with the alignment and tail slack each buffer really allocates.
  const size_t wanted = BufferBytes(stats.arena_bytes) + BufferBytes(stats.persistent_bytes);
  if (budget_ != nullptr && !budget_->TryRecharge(charged_, wanted)) {
    if (error != nullptr) {
      *error = "the tensor arenas need " + FormatByteSize(wanted) + " (activations " +
               FormatByteSize(stats.arena_bytes) + ", variables " +
               FormatByteSize(stats.persistent_bytes) + ") but the memory limit of " +
               FormatByteSize(budget_->limit()) + " leaves " +
               FormatByteSize(budget_->available() + charged_) + " for them";
    }
    return false;
  }
  charged_ = wanted;
  stats_ = stats;
  arena_.Resize(stats_.arena_bytes, alignment_);
  const bool persistent_changed =
      persistent_.size != stats_.persistent_bytes || !persistent_.storage;
  persistent_.Resize(stats_.persistent_bytes, alignment_);
  if (persistent_changed && persistent_.aligned)
    std::memset(persistent_.aligned, 0, persistent_.size);

  for (size_t k = 0; k < arena_tensors.size(); ++k) {
    TfLiteTensor* t = graph.tensor(arena_tensors[k]);
    offsets_[arena_tensors[k]] = arena_offsets[k];
    t->data.raw = t->bytes == 0 ? nullptr : arena_.aligned + arena_offsets[k];
  }
  for (size_t k = 0; k < persistent_tensors.size(); ++k) {
    TfLiteTensor* t = graph.tensor(persistent_tensors[k]);
    offsets_[persistent_tensors[k]] = persistent_offsets[k];
    t->data.raw = t->bytes == 0 ? nullptr : persistent_.aligned + persistent_offsets[k];
  }
  return true;
}

}  // namespace octet
