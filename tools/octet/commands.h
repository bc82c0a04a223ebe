#pragma once

#include <limits>
#include <string>
#include <vector>

#include "image_input.h"

namespace octet::cli {

struct RunOptions {
  std::string model;
  std::vector<std::string> inputs;
  std::string output_dir = ".";
  int threads = 1;
  std::string delegate;       // --delegate NAME (tools/octet/delegates.h)
  double timeout = 0;         // --timeout SECONDS: cancel a longer invoke (0: no limit)
  ImageOptions image;         // --image PICTURE (instead of --input): prints the top classes
  bool write_outputs = true;  // with --image, only when --output-dir is given
};

struct BenchOptions {
  std::string model;
  std::vector<std::string> inputs;
  int runs = 50;
  int warmup = 5;
  int threads = 1;
  std::string delegate;
  bool profile = false;  // --profile: per-op times after the runs
  std::string plot;      // --plot FILE.svg: the profile as a bar chart (implies --profile)
  std::string compare;   // --compare DELEGATE: built-in vs that delegate, alternating
};

struct FuseOptions {
  std::string model;
  std::string output;               // -o OUT.tflite
  std::vector<std::string> passes;  // --passes a,b (default: the by-default ones, in AllPasses() order)
  bool report = false;              // --report: every change, and both models timed
  bool list = false;                // --list-passes
  int runs = 20;                    // --runs: timed runs of each model with --report
};

struct QuantizeCliOptions {
  std::string model;
  std::string output;                    // -o OUT.tflite
  std::vector<std::string> calibration;  // .npy files, pictures or directories of them
  int random = 0;                        // --random N: seeded random samples instead
  std::vector<std::string> eval;         // a separate accuracy set (default: calibration)
  std::string mode = "full-int8";        // full-int8 | dynamic-range | float16
  std::string io = "float";              // float | int8 | uint8
  std::string range = "minmax";          // minmax | percentile
  double percentile = 99.99;
  bool fc_per_channel = false;
  double mean = std::numeric_limits<double>::quiet_NaN();  // pictures: (pixel - mean) / std
  double std = std::numeric_limits<double>::quiet_NaN();
  int layers = 10;                       // rows of the SQNR table
  bool verbose = false;                  // why each op stays float
};

int RunCommand(const RunOptions& options);
int QuantizeCommand(const QuantizeCliOptions& options);
int FuseCommand(const FuseOptions& options);
int InspectCommand(const std::string& model_path, bool list_tensors,
                   const std::string& delegate = "", const std::string& graph_path = "");
int BenchCommand(const BenchOptions& options);
int DemoCommand(const std::string& save_path);
int OpsCommand();
int CpuCommand();

}  // namespace octet::cli
