#include "graph_picture.h"

#include <map>
#include <string>
#include <vector>

#include "cli_common.h"
#include "format/parse_options.h"
#include "octet/kernel_info.h"
#include "tensorflow/lite/builtin_ops.h"
#include "tensorflow/lite/c/builtin_op_data.h"

#if defined(OCTET_HAVE_GRAPHVIZ)
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#endif

namespace octet::cli {

#if defined(OCTET_HAVE_GRAPHVIZ)

namespace {

// The Graphviz output format for a file name, or "" when the extension is not one we draw.
std::string FormatFor(const std::string& path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos) return "";
  const std::string ext = path.substr(dot + 1);
  if (ext == "svg" || ext == "png" || ext == "pdf") return ext;
  if (ext == "dot" || ext == "gv") return "dot";
  return "";
}

std::string OpNameOf(const TfLiteRegistration& reg) {
  if (reg.custom_name != nullptr) return std::string("CUSTOM ") + reg.custom_name;
  return octet::format::BuiltinOperatorName(reg.builtin_code);
}

std::string TensorText(const TfLiteTensor& t) {
  return ShapeString(t.dims) + " " + TfLiteTypeGetName(t.type);
}

bool IsConstant(const TfLiteTensor& t) {
  return t.allocation_type == kTfLiteMmapRo || t.allocation_type == kTfLitePersistentRo;
}

// The subgraphs an op calls, with the role of each ("then", "body", ...).
std::vector<std::pair<std::string, int>> CalledSubgraphs(const TfLiteNode& node,
                                                         const TfLiteRegistration& reg) {
  if (node.builtin_data == nullptr) return {};
  switch (reg.builtin_code) {
    case kTfLiteBuiltinIf: {
      const auto* p = static_cast<const TfLiteIfParams*>(node.builtin_data);
      return {{"then", p->then_subgraph_index}, {"else", p->else_subgraph_index}};
    }
    case kTfLiteBuiltinWhile: {
      const auto* p = static_cast<const TfLiteWhileParams*>(node.builtin_data);
      return {{"cond", p->cond_subgraph_index}, {"body", p->body_subgraph_index}};
    }
    case kTfLiteBuiltinCallOnce: {
      const auto* p = static_cast<const TfLiteCallOnceParams*>(node.builtin_data);
      return {{"init", p->init_subgraph_index}};
    }
    default:
      return {};
  }
}

// What the picture shows, independent of Graphviz: nodes (ops and model inputs/outputs) with
// their labels and clusters, and edges with tensor labels.
struct Picture {
  struct Node {
    std::string id, label, shape, fill;
    int cluster = -1;  // subgraph index when the model has several
  };
  struct Edge {
    std::string tail, head, label;
    bool call = false;  // an op calling into a subgraph (dashed, into the cluster)
    int head_cluster = -1;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::map<int, std::string> cluster_labels;
};

Picture Describe(const tflite::Interpreter& interp) {
  Picture picture;
  const int subgraphs = static_cast<int>(interp.subgraphs_size());
  std::map<int, std::string> first_op;  // per subgraph, for call edges
  for (int sg = 0; sg < subgraphs; ++sg) {
    const tflite::Subgraph& g = *interp.subgraph(sg);
    const int cluster = subgraphs > 1 ? sg : -1;
    if (cluster >= 0) {
      picture.cluster_labels[sg] =
          "subgraph " + std::to_string(sg) + (g.name().empty() ? "" : " '" + g.name() + "'");
    }
    const std::string prefix = "s" + std::to_string(sg) + "_";
    std::map<int, std::string> producer;  // tensor -> picture node id
    for (size_t k = 0; k < g.inputs().size(); ++k) {
      const int t = g.inputs()[k];
      const TfLiteTensor* tensor = g.tensor(t);
      if (tensor == nullptr) continue;
      const std::string id = prefix + "in" + std::to_string(k);
      picture.nodes.push_back({id,
                               "input " + std::to_string(k) + ": " +
                                   (tensor->name ? tensor->name : "") + "\n" + TensorText(*tensor),
                               "ellipse", "#d9f0d3", cluster});
      producer[t] = id;
    }
    for (int op : g.execution_plan()) {
      const auto* nr = g.node_and_registration(op);
      if (nr == nullptr) continue;
      const TfLiteNode& node = nr->first;
      const std::string id = prefix + "op" + std::to_string(op);
      if (!first_op.count(sg)) first_op[sg] = id;
      std::string label = "#" + std::to_string(op) + " " + OpNameOf(nr->second);
      const char* kernel = GetNodeKernelName(g, op);
      if (kernel != nullptr && *kernel != '\0') label += "\n" + std::string(kernel);
      for (int i = 0; i < node.inputs->size; ++i) {
        const int t = node.inputs->data[i];
        const TfLiteTensor* tensor = t >= 0 ? g.tensor(t) : nullptr;
        if (tensor == nullptr || producer.count(t) || !IsConstant(*tensor)) continue;
        label += "\nconst " + TensorText(*tensor);  // weights, bias, shapes: folded in
      }
      for (const auto& [role, index] : CalledSubgraphs(node, nr->second)) {
        label += "\n" + role + ": subgraph " + std::to_string(index);
      }
      picture.nodes.push_back({id, label, "box", "#dbe6f4", cluster});
      for (int i = 0; i < node.inputs->size; ++i) {
        const int t = node.inputs->data[i];
        const auto it = producer.find(t);
        if (t < 0 || it == producer.end()) continue;
        picture.edges.push_back({it->second, id, TensorText(*g.tensor(t))});
      }
      for (int o = 0; o < node.outputs->size; ++o) {
        if (node.outputs->data[o] >= 0) producer[node.outputs->data[o]] = id;
      }
    }
    for (size_t k = 0; k < g.outputs().size(); ++k) {
      const int t = g.outputs()[k];
      const TfLiteTensor* tensor = g.tensor(t);
      if (tensor == nullptr) continue;
      const std::string id = prefix + "out" + std::to_string(k);
      picture.nodes.push_back({id,
                               "output " + std::to_string(k) + ": " +
                                   (tensor->name ? tensor->name : "") + "\n" + TensorText(*tensor),
                               "ellipse", "#fbe3c8", cluster});
      const auto it = producer.find(t);
      if (it != producer.end()) picture.edges.push_back({it->second, id, TensorText(*tensor)});
    }
  }
  // Calls into other subgraphs: a dashed edge to the callee's first op, clipped at its cluster.
  for (int sg = 0; sg < subgraphs; ++sg) {
    const tflite::Subgraph& g = *interp.subgraph(sg);
    for (int op : g.execution_plan()) {
      const auto* nr = g.node_and_registration(op);
      if (nr == nullptr) continue;
      for (const auto& [role, index] : CalledSubgraphs(nr->first, nr->second)) {
        const auto it = first_op.find(index);
        if (it == first_op.end()) continue;
        picture.edges.push_back(
            {"s" + std::to_string(sg) + "_op" + std::to_string(op), it->second, role, true, index});
      }
    }
  }
  return picture;
}

}  // namespace

bool GraphPicturesSupported() { return true; }

namespace {

void Set(void* object, const char* name, const std::string& value) {
  agsafeset(object, const_cast<char*>(name), const_cast<char*>(value.c_str()),
            const_cast<char*>(""));
}

// Owns the Graphviz context and graph for one drawing.
class Drawing {
 public:
  Drawing() : gvc_(gvContext()), graph_(agopen(const_cast<char*>("octet"), Agdirected, nullptr)) {}
  ~Drawing() {
    if (laid_out_) gvFreeLayout(gvc_, graph_);
    agclose(graph_);
    gvFreeContext(gvc_);
  }
  Drawing(const Drawing&) = delete;
  Drawing& operator=(const Drawing&) = delete;

  Agraph_t* graph() const { return graph_; }
  bool Render(const std::string& format, const std::string& path) {
    if (gvLayout(gvc_, graph_, "dot") != 0) return false;
    laid_out_ = true;
    return gvRenderFilename(gvc_, graph_, format.c_str(), path.c_str()) == 0;
  }

 private:
  GVC_t* gvc_;
  Agraph_t* graph_;
  bool laid_out_ = false;
};

}  // namespace

bool WriteGraphPicture(const tflite::Interpreter& interp, const std::string& path,
                       std::string* error) {
  const std::string format = FormatFor(path);
  if (format.empty()) {
    *error = "cannot tell the picture format of '" + path + "': use .svg, .png, .pdf or .dot";
    return false;
  }
  const Picture picture = Describe(interp);
  Drawing drawing;
  Agraph_t* root = drawing.graph();
  Set(root, "rankdir", "TB");
  Set(root, "compound", "true");
  Set(root, "fontname", "Helvetica");
  Set(root, "nodesep", "0.3");
  Set(root, "ranksep", "0.35");
  std::map<int, Agraph_t*> clusters;
  for (const auto& [index, label] : picture.cluster_labels) {
    Agraph_t* c = agsubg(root, const_cast<char*>(("cluster_" + std::to_string(index)).c_str()), 1);
    Set(c, "label", label);
    Set(c, "style", "rounded");
    clusters[index] = c;
  }
  std::map<std::string, Agnode_t*> nodes;
  for (const Picture::Node& n : picture.nodes) {
    Agraph_t* owner = n.cluster >= 0 ? clusters[n.cluster] : root;
    Agnode_t* node = agnode(owner, const_cast<char*>(n.id.c_str()), 1);
    Set(node, "label", n.label);
    Set(node, "shape", n.shape);
    Set(node, "style", n.shape == "box" ? "rounded,filled" : "filled");
    Set(node, "fillcolor", n.fill);
    Set(node, "fontname", "Helvetica");
    Set(node, "fontsize", "10");
    nodes[n.id] = node;
  }
  for (const Picture::Edge& e : picture.edges) {
    Agedge_t* edge = agedge(root, nodes.at(e.tail), nodes.at(e.head), nullptr, 1);
    Set(edge, "label", e.label);
    Set(edge, "fontname", "Helvetica");
    Set(edge, "fontsize", "9");
    if (e.call) {
      Set(edge, "style", "dashed");
      if (e.head_cluster >= 0) Set(edge, "lhead", "cluster_" + std::to_string(e.head_cluster));
    }
  }
  if (!drawing.Render(format, path)) {
    *error = "Graphviz could not draw '" + path + "' (format " + format + ")";
    return false;
  }
  return true;
}

#else

bool GraphPicturesSupported() { return false; }

bool WriteGraphPicture(const tflite::Interpreter& interp, const std::string& path,
                       std::string* error) {
  (void)interp;
  *error = "cannot draw '" + path +
           "': this octet was built without Graphviz (Debian: libgraphviz-dev; then rebuild)";
  return false;
}

#endif

}  // namespace octet::cli
