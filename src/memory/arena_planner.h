// Memory planning: tensor lifetimes from the execution plan, then best-fit offsets in one
// arena sized at the high-water mark, plus a separate persistent arena for variables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "memory/memory_budget.h"
#include "tensorflow/lite/c/common.h"

namespace octet {

// What the planner needs to know about a graph, in execution order.
class GraphInfo {
 public:
  virtual ~GraphInfo() = default;
  virtual size_t num_tensors() const = 0;
  virtual TfLiteTensor* tensor(size_t index) = 0;
  virtual size_t num_nodes() const = 0;  // nodes in execution-plan order
  virtual const TfLiteNode& node(size_t plan_index) const = 0;
  virtual const std::vector<int>& inputs() const = 0;
  virtual const std::vector<int>& outputs() const = 0;
  virtual const std::vector<int>& variables() const = 0;
  // A tensor the node at plan_index writes besides its outputs (the output of an ADD fused
  // into it, core/residual_fusion.h), or -1: its life starts there.
  virtual int fused_output(size_t /*plan_index*/) const { return -1; }
};

constexpr int kNotUsed = -1;

// First and last plan index at which a tensor must hold its bytes.
struct Lifetime {
  int first = kNotUsed;
  int last = kNotUsed;
};

// Lifetimes as the seed describes them: graph inputs and variables start at node 0; a node's
// outputs (and fused output) start at that node; an input's life ends at its last reader unless it
// is a graph output, a graph input (preserved), or a variable, which live to the end. Temporaries
// live only during their node.
std::vector<Lifetime> ComputeLifetimes(GraphInfo& graph);

// One block to place: `size` bytes needed from node `first` to node `last` inclusive.
struct Block {
  size_t size = 0;
  int first = 0;
  int last = 0;
};

// Best-fit placement: larger blocks first; each goes into the smallest gap between blocks
// whose lifetimes overlap it, or past the end. Returns the high-water mark (arena size).
size_t AssignOffsets(const std::vector<Block>& blocks, size_t alignment,
                     std::vector<size_t>* offsets);

// No plan can be smaller than this: the largest total of bytes live at any one node.
size_t LiveBytesLowerBound(const std::vector<Block>& blocks);

struct PlannerStats {
  size_t arena_bytes = 0;        // activation arena (high-water mark)
  size_t persistent_bytes = 0;   // variables
  size_t lower_bound_bytes = 0;  // largest sum of simultaneously live activation bytes
  size_t planned_tensors = 0;
};

// Owns the arenas and points tensors into them.
class ArenaPlanner {
 public:
  // The arenas are charged to `budget` (may be null: unlimited), which must outlive this.
  explicit ArenaPlanner(MemoryBudget* budget = nullptr, size_t alignment = 64)
      : budget_(budget), alignment_(alignment) {}
  ~ArenaPlanner();
  // Charges later plans to `budget`; only before the first plan (false, unchanged, after).
  bool SetBudget(MemoryBudget* budget);
  ArenaPlanner(const ArenaPlanner&) = delete;
  ArenaPlanner& operator=(const ArenaPlanner&) = delete;

  // Plans every kTfLiteArenaRw / kTfLiteArenaRwPersistent tensor that is used by one of
  // the first `prepared_nodes` nodes (or is a graph input / variable), allocates the
  // arenas and sets tensor->data. Persistent contents survive a re-plan of equal size.
  // False, with `error` set and the previous arenas kept, when the arenas would not fit
  // the memory budget.
  bool Plan(GraphInfo& graph, size_t prepared_nodes, std::string* error);

  const PlannerStats& stats() const { return stats_; }
  const std::vector<Lifetime>& lifetimes() const { return lifetimes_; }
  const std::vector<size_t>& offsets() const { return offsets_; }

 private:
  struct AlignedBuffer {
    std::unique_ptr<char[]> storage;
    char* aligned = nullptr;
    size_t size = 0;
    void Resize(size_t bytes, size_t alignment);
  };
  // What a buffer holding `bytes` really allocates (alignment and read slack included).
  size_t BufferBytes(size_t bytes) const;
  MemoryBudget* budget_;
  size_t alignment_;
  size_t charged_ = 0;  // what the arenas hold against the budget
  AlignedBuffer arena_, persistent_;
  std::vector<Lifetime> lifetimes_;
  std::vector<size_t> offsets_;
  PlannerStats stats_;
};

}  // namespace octet
