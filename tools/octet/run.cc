// `octet run`: feed .npy inputs (or a picture), invoke once, write output_<k>.npy (or print
// the top classes).
#include <sys/stat.h>

#include <chrono>
#include <cstdio>

#include "cli_common.h"
#include "commands.h"
#include "delegates.h"
#include "image_input.h"
#include "octet/npy.h"

namespace octet::cli {
namespace {

// Asked by the interpreter before every node (also inside WHILE loops).
bool PastDeadline(void* deadline) {
  return std::chrono::steady_clock::now() >
         *static_cast<std::chrono::steady_clock::time_point*>(deadline);
}

}  // namespace

int RunCommand(const RunOptions& options) {
  LoadedModel m = LoadModel(options.model, options.threads);
  tflite::Interpreter& interp = *m.interpreter;
  m.delegate = ApplyDelegate(options.delegate, &interp, options.threads, m.reporter.get());
  Check(interp.AllocateTensors(), "cannot prepare model", *m.reporter);

  const bool image = !options.image.path.empty();
  const size_t n_inputs = interp.inputs().size();
  if (image) {
    FeedImage(interp, options.image);
  } else {
    if (options.inputs.size() != n_inputs) {
      throw Failure("the model has " + std::to_string(n_inputs) + " input(s), got " +
                    std::to_string(options.inputs.size()) + " --input file(s)");
    }
    FeedInputs(interp, options.inputs, *m.reporter);
  }

  const auto start = std::chrono::steady_clock::now();
  auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(options.timeout));
  if (options.timeout > 0) interp.SetCancellationFunction(&deadline, PastDeadline);
  const TfLiteStatus status = interp.Invoke();
  if (status == kTfLiteCancelled) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", options.timeout);
    throw Failure(std::string("invoke cancelled: it ran longer than --timeout ") + limit + " s");
  }
  Check(status, "invoke failed", *m.reporter);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  if (image) PrintTopClasses(interp, options.image);
  if (options.write_outputs) ::mkdir(options.output_dir.c_str(), 0755);  // fine if it exists
  for (size_t k = 0; k < interp.outputs().size() && options.write_outputs; ++k) {
    const TfLiteTensor* t = interp.tensor(interp.outputs()[k]);
    const std::string path = options.output_dir + "/output_" + std::to_string(k) + ".npy";
    std::string error;
    const std::vector<int> shape(t->dims->data, t->dims->data + t->dims->size);
    if (!WriteNpy(path, t->type, shape, t->data.raw, t->bytes, &error)) throw Failure(error);
    std::printf("output %zu: %s %s -> %s\n", k, TfLiteTypeGetName(t->type),
                ShapeString(t->dims).c_str(), path.c_str());
  }
  std::printf("ran %s in %.3f ms (%zu nodes)\n", options.model.c_str(), ms,
              interp.execution_plan().size());
  return 0;
}

}  // namespace octet::cli
