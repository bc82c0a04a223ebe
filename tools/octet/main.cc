// octet: run, inspect and benchmark .tflite models.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli_common.h"
#include "commands.h"
#include "delegates.h"
#include "memory/memory_budget.h"

int main(int argc, char** argv) {
  CLI::App app{"octet: a TensorFlow Lite inference engine"};
  app.require_subcommand(1);

  octet::cli::RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "run a model on .npy inputs, write .npy outputs");
  run_cmd->add_option("model", run.model, "the .tflite file")->required();
  auto* run_inputs =
      run_cmd->add_option("--input,-i", run.inputs, "input .npy, one per model input, in order");
  auto* run_output_dir =
      run_cmd->add_option("--output-dir,-o", run.output_dir, "where output_<k>.npy are written");
  auto* run_image = run_cmd->add_option(
      "--image", run.image.path,
      "a picture (JPEG, PNG, BMP, ...) for an image model's input: resized, converted per the "
      "input's type, top classes printed");
  run_image->excludes(run_inputs);
  run_cmd->add_option("--labels", run.image.labels, "with --image: class labels, one per line")
      ->needs(run_image);
  run_cmd->add_option("--top", run.image.top, "with --image: how many classes to print")
      ->check(CLI::Range(1, 1000000))
      ->needs(run_image);
  auto* run_mean = run_cmd->add_option("--mean", run.image.mean,
                                       "with --image: input = (pixel - mean) / std (default 127.5 "
                                       "for float inputs)");
  run_mean->needs(run_image);
  run_cmd->add_option("--std", run.image.std, "with --image: see --mean (default 127.5)")
      ->needs(run_mean);
  run_cmd->add_option("--threads", run.threads, "kernel threads")->check(CLI::Range(1, 64));
  run_cmd->add_option("--delegate", run.delegate, "delegate: " + octet::cli::DelegateNames());
  run_cmd->add_option("--timeout", run.timeout, "cancel the invoke after this many seconds")
      ->check(CLI::PositiveNumber);

  std::string inspect_model;
  auto* inspect_cmd = app.add_subcommand("inspect", "verify, build and plan a model; describe it");
  inspect_cmd->add_option("model", inspect_model, "the .tflite file")->required();
  std::string inspect_delegate;
  inspect_cmd->add_option(
      "--delegate", inspect_delegate,
      "apply a delegate and show the partitioning: " + octet::cli::DelegateNames());
  bool inspect_tensors = false;
  inspect_cmd->add_flag("--tensors", inspect_tensors, "list every tensor with its quantization");
  std::string inspect_graph;
  inspect_cmd->add_option("--graph", inspect_graph,
                          "draw the graph with Graphviz into this .svg, .png, .pdf or .dot file");

  octet::cli::BenchOptions bench;
  auto* bench_cmd = app.add_subcommand("bench", "time Invoke on random (or given) inputs");
  bench_cmd->add_option("model", bench.model, "the .tflite file")->required();
  bench_cmd->add_option("--input,-i", bench.inputs, "input .npy files (default: seeded random)");
  bench_cmd->add_option("--runs", bench.runs, "timed runs")->check(CLI::Range(1, 1000000));
  bench_cmd->add_option("--warmup", bench.warmup, "untimed runs first")->check(CLI::Range(0, 1000));
  bench_cmd->add_option("--threads", bench.threads, "kernel threads")->check(CLI::Range(1, 64));
  bench_cmd->add_option("--delegate", bench.delegate, "delegate: " + octet::cli::DelegateNames());
  bench_cmd->add_flag("--profile", bench.profile,
                      "print per-op time, share, GMAC/s and the kernel each op runs");
  bench_cmd->add_option("--plot", bench.plot,
                        "with the profile, draw per-op and per-node time as an SVG bar chart");
  bench_cmd
      ->add_option("--compare", bench.compare,
                   "time the built-in kernels and this delegate (or, with threads:K, the "
                   "built-in kernels on K threads) alternately, print the ratio")
      ->excludes("--delegate");

  std::string demo_save;
  auto* demo_cmd =
      app.add_subcommand("demo",
                         "run a MobileNetV2-sized int8 network built in code on the optimized and "
                         "the reference kernels; check they agree, print the speed-up");
  demo_cmd->add_option("--save", demo_save, "also write the demo model to this .tflite path");

  octet::cli::FuseOptions fuse;
  auto* fuse_cmd = app.add_subcommand(
      "fuse", "rewrite a model with fusion passes (results kept equal), write it, check it");
  fuse_cmd->add_option("model", fuse.model, "the .tflite file");
  fuse_cmd->add_option("--output,-o", fuse.output, "where the rewritten .tflite is written");
  fuse_cmd
      ->add_option("--passes", fuse.passes,
                   "passes to run, in order (default: every pass not marked 'only when named')")
      ->delimiter(',');
  fuse_cmd->add_flag("--report", fuse.report,
                     "list every change, and time both models alternately");
  fuse_cmd->add_option("--runs", fuse.runs, "with --report: timed runs of each model")
      ->check(CLI::Range(1, 100000));
  fuse_cmd->add_flag("--list-passes", fuse.list, "list the passes and what each does");

  octet::cli::QuantizeCliOptions quantize;
  auto* quantize_cmd = app.add_subcommand(
      "quantize",
      "post-training quantization of a float model (int8 spec), with an accuracy report");
  quantize_cmd->add_option("model", quantize.model, "the float .tflite file")->required();
  quantize_cmd->add_option("--output,-o", quantize.output, "where the quantized .tflite goes")
      ->required();
  auto* calibration_opt = quantize_cmd->add_option(
      "--calibration", quantize.calibration,
      ".npy files (the input's shape, or [N, ...] of it), pictures, or directories of them");
  quantize_cmd
      ->add_option("--random", quantize.random, "calibrate on N seeded random inputs in [-1, 1]")
      ->check(CLI::Range(1, 100000))
      ->excludes(calibration_opt);
  quantize_cmd->add_option("--eval", quantize.eval,
                           "accuracy set, as --calibration (default: the calibration samples)");
  quantize_cmd->add_option("--mode", quantize.mode, "full-int8 | int16x8 | dynamic-range | float16")
      ->check(CLI::IsMember({"full-int8", "int16x8", "dynamic-range", "float16"}));
  quantize_cmd
      ->add_option("--io", quantize.io,
                   "model inputs and outputs: float | int8 | uint8 (full-int8) | int16 (int16x8)")
      ->check(CLI::IsMember({"float", "int8", "uint8", "int16"}));
  quantize_cmd->add_option("--range", quantize.range, "activation ranges: minmax | percentile")
      ->check(CLI::IsMember({"minmax", "percentile"}));
  quantize_cmd->add_option("--percentile", quantize.percentile, "with --range percentile")
      ->check(CLI::Range(50.0, 100.0));
  quantize_cmd->add_flag("--fc-per-channel", quantize.fc_per_channel,
                         "FULLY_CONNECTED weights per output channel (default per tensor)");
  quantize_cmd->add_option("--mean", quantize.mean, "pictures: input = (pixel - mean) / std");
  quantize_cmd->add_option("--std", quantize.std, "pictures: see --mean");
  quantize_cmd->add_option("--layers", quantize.layers, "rows of the per-layer SQNR table")
      ->check(CLI::Range(0, 100000));
  quantize_cmd->add_flag("--verbose", quantize.verbose, "say why each float op stays float");

  auto* ops_cmd = app.add_subcommand("ops", "list every op the builtin resolver registers");
  auto* cpu_cmd =
      app.add_subcommand("cpu", "list the kernel paths this CPU runs and the active one");

  // --max-memory on every command that builds an interpreter.
  std::string max_memory;
  for (CLI::App* command : {run_cmd, inspect_cmd, bench_cmd}) {
    command
        ->add_option("--max-memory", max_memory,
                     "most memory the interpreter may hold (e.g. 512M, 2G, unlimited; default: "
                     "$OCTET_MAX_MEMORY or half the physical memory)")
        ->check(CLI::Validator(octet::cli::CheckMemoryLimitText, "SIZE"));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 1;
  }
  try {
    if (!max_memory.empty()) {
      size_t bytes = 0;
      octet::ParseByteSize(max_memory, &bytes);  // validated by the option's check
      octet::cli::SetMemoryLimit(bytes);
    }
    if (*run_cmd) {
      // A picture's run prints classes; outputs are written when a directory is asked for.
      run.write_outputs = run.image.path.empty() || run_output_dir->count() > 0;
      return octet::cli::RunCommand(run);
    }
    if (*inspect_cmd) {
      return octet::cli::InspectCommand(inspect_model, inspect_tensors, inspect_delegate,
                                        inspect_graph);
    }
    if (*bench_cmd) {
      if (!bench.plot.empty()) bench.profile = true;  // the plot is of the profile
      return octet::cli::BenchCommand(bench);
    }
    if (*demo_cmd) return octet::cli::DemoCommand(demo_save);
    if (*fuse_cmd) return octet::cli::FuseCommand(fuse);
    if (*quantize_cmd) {
      if (quantize.calibration.empty() && quantize.random == 0 &&
          (quantize.mode == "full-int8" || quantize.mode == "int16x8")) {
        throw octet::cli::Failure(quantize.mode + " needs --calibration FILES or --random N");
      }
      if (quantize.calibration.empty() && quantize.random == 0) quantize.random = 1;
      if ((quantize.io == "int16") != (quantize.mode == "int16x8" && quantize.io != "float")) {
        throw octet::cli::Failure("--io " + quantize.io + " does not go with --mode " +
                                  quantize.mode +
                                  " (int16x8 takes float or int16, full-int8 "
                                  "float, int8 or uint8)");
      }
      return octet::cli::QuantizeCommand(quantize);
    }
    if (*ops_cmd) return octet::cli::OpsCommand();
    if (*cpu_cmd) return octet::cli::CpuCommand();
  } catch (const octet::cli::Failure& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 1;
}
