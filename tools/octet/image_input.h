// `octet run MODEL --image PICTURE [--labels FILE] [--top K] [--mean M --std S]`: what TFLite's
// label_image does, without .npy files. The picture (JPEG, PNG, BMP, GIF, TGA... decoded by
// Debian's stb_image) is resized to the model's [1, H, W, C] input (C = 1 or 3) and fed as
//  - float32: (pixel - mean) / std, mean and std 127.5 unless given;
//  - uint8 / int8: by default the input's 256 codes are the 256 pixel levels (pixel for uint8,
//    pixel - 128 for int8: how image models quantize a [0, 1] or [-1, 1] input); with --mean
//    and --std, (pixel - mean) / std quantized with the input's scale and zero point.
// Output 0 is then read as class scores (dequantized when quantized) and its top K printed
// with their labels.
#pragma once

#include <limits>
#include <string>

#include "tensorflow/lite/interpreter.h"

namespace octet::cli {

struct ImageOptions {
  std::string path;
  std::string labels;  // one label per line, line i for class i
  int top = 5;
  double mean = std::numeric_limits<double>::quiet_NaN();  // NaN: not given
  double std = std::numeric_limits<double>::quiet_NaN();
};

// Whether this build decodes pictures (it links Debian's libstb).
bool ImageInputSupported();

// Decodes, resizes and converts the picture into the interpreter's only input (allocated);
// prints one line saying what was fed. Throws Failure on any error.
void FeedImage(tflite::Interpreter& interp, const ImageOptions& options);

// Prints the top classes of output 0 after an invoke. Throws Failure when output 0 is not a
// vector of scores.
void PrintTopClasses(const tflite::Interpreter& interp, const ImageOptions& options);

}  // namespace octet::cli
