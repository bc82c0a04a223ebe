// `octet inspect MODEL --graph FILE`: the model's graph drawn by Graphviz (dot layout): one
// box per op (with its kernel and its constant inputs folded in), tensors as labelled edges,
// model inputs and outputs as ellipses, and each further subgraph (IF / WHILE / CALL_ONCE
// bodies) as a cluster the calling op points into. The format follows the file's extension:
// .svg, .png, .pdf, or .dot / .gv (the laid-out graph as text).
#pragma once

#include <string>

#include "tensorflow/lite/interpreter.h"

namespace octet::cli {

// Whether this build can draw (it links Debian's libgvc); without it WriteGraphPicture
// reports that as its error.
bool GraphPicturesSupported();

// Draws the prepared interpreter's graph into `path`; false with `error` on failure.
bool WriteGraphPicture(const tflite::Interpreter& interp, const std::string& path,
                       std::string* error);

}  // namespace octet::cli
