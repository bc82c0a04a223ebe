/* The C calls mattn/go-tflite makes, in its order, for its label_image example: a Go program
 * using that binding, replayed in C against Octet (C11, linked against liboctet.a).
 *   model := tflite.NewModelFromFile(path)          TfLiteModelCreateFromFile
 *   options := tflite.NewInterpreterOptions()       TfLiteInterpreterOptionsCreate
 *   options.SetNumThread(4)                         TfLiteInterpreterOptionsSetNumThreads
 *   options.SetErrorReporter(f, nil)                TfLiteInterpreterOptionsSetErrorReporter
 *   interpreter := tflite.NewInterpreter(model, options)   TfLiteInterpreterCreate
 *   interpreter.AllocateTensors()                   TfLiteInterpreterAllocateTensors
 *   input := interpreter.GetInputTensor(0)          TfLiteInterpreterGetInputTensor
 *   input.Dim(1), Dim(2), Dim(3), Type()            TfLiteTensorDim, TfLiteTensorType
 *   input.CopyFromBuffer(bb)                        TfLiteTensorCopyFromBuffer(t, p, ByteSize)
 *   interpreter.Invoke()                            TfLiteInterpreterInvoke
 *   output := interpreter.GetOutputTensor(0)        TfLiteInterpreterGetOutputTensor
 *   output.Dim(output.NumDims() - 1)                TfLiteTensorNumDims, TfLiteTensorDim
 *   output.CopyToBuffer(&b[0])                      TfLiteTensorCopyToBuffer(t, p, ByteSize)
 *   deferred: interpreter.Delete(), options.Delete(), model.Delete()
 * The image is the corpus's grace_hopper case of the Coral uint8 MobileNet (the binding's
 * example uses a uint8 MobileNet too); the output must equal its golden output.
 * usage: go_tflite_sequence [MODELS_DIR]   ($OCTET_MODELS wins); exit 77 without the corpus. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test_util.h"
#include "tensorflow/lite/c/c_api.h"
#include "tensorflow/lite/c/c_api_experimental.h"

static const char* const kModel = "coral_mobilenet_v1_0.25_128_quant.tflite";
static const char* const kCase = "cases/coral_mobilenet_v1_0.25_128_quant/grace_hopper";

/* What the binding's cgo shim does: format the message, hand it to the Go callback. */
typedef struct Messages {
  int count;
  char last[512];
} Messages;

static void ErrorReporter(void* user_data, const char* format, va_list args) {
  Messages* messages = (Messages*)user_data;
  vsnprintf(messages->last, sizeof(messages->last), format, args);
  ++messages->count;
  printf("error reporter: %s\n", messages->last);
}

static int Fail(const char* what) {
  fprintf(stderr, "go_tflite_sequence: %s\n", what);
  return 1;
}

int main(int argc, char** argv) {
  const char* models = ModelsDir(argc, argv);
  char path[4096];
  snprintf(path, sizeof(path), "%s/%s", models, kModel);
  if (!FileExists(path)) {
    printf("skipped: no shared model corpus at %s (set OCTET_MODELS)\n", models);
    return OCTET_TEST_SKIP;
  }
  NpyArray image, golden;
  snprintf(path, sizeof(path), "%s/%s/input_0.npy", models, kCase);
  if (ReadNpy(path, &image) != 0) return Fail("cannot read the input image");
  snprintf(path, sizeof(path), "%s/%s/output_0.npy", models, kCase);
  if (ReadNpy(path, &golden) != 0) return Fail("cannot read the golden output");
  snprintf(path, sizeof(path), "%s/%s", models, kModel);

  TfLiteModel* model = TfLiteModelCreateFromFile(path);
  if (model == NULL) return Fail("cannot load model");
  TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
  TfLiteInterpreterOptionsSetNumThreads(options, 4);
  Messages messages = {0, ""};
  TfLiteInterpreterOptionsSetErrorReporter(options, ErrorReporter, &messages);
  TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(model, options);
  if (interpreter == NULL) return Fail("cannot create interpreter");
  if (TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk) return Fail("allocate failed");

  TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter, 0);
  const int wanted_height = TfLiteTensorDim(input, 1);
  const int wanted_width = TfLiteTensorDim(input, 2);
  const int wanted_channels = TfLiteTensorDim(input, 3);
  if (TfLiteTensorType(input) != kTfLiteUInt8) return Fail("is not wanted type");
  const size_t wanted_bytes =
      (size_t)wanted_height * (size_t)wanted_width * (size_t)wanted_channels;
  if (wanted_bytes != image.bytes) return Fail("input shape does not match the image");
  if (TfLiteTensorCopyFromBuffer(input, image.data, TfLiteTensorByteSize(input)) != kTfLiteOk) {
    return Fail("copy to the input failed");
  }
  if (TfLiteInterpreterInvoke(interpreter) != kTfLiteOk) return Fail("invoke failed");

  const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(interpreter, 0);
  const int output_size = TfLiteTensorDim(output, TfLiteTensorNumDims(output) - 1);
  unsigned char* b = (unsigned char*)malloc((size_t)output_size);
  if (b == NULL || (size_t)output_size != golden.bytes) return Fail("unexpected output size");
  if (TfLiteTensorCopyToBuffer(output, b, TfLiteTensorByteSize(output)) != kTfLiteOk) {
    return Fail("output failed");
  }
  int best = 0;
  for (int i = 1; i < output_size; ++i) {
    if (b[i] > b[best]) best = i;
  }
  printf("top-1: class %d, score %f\n", best, b[best] / 255.0);
  const int same = memcmp(b, golden.data, golden.bytes) == 0;

  /* Not part of the binding's sequence: a misuse must reach the Go-side reporter. */
  const int bad_dims[1] = {1};
  const int resize_failed =
      TfLiteInterpreterResizeInputTensor(interpreter, 7, bad_dims, 1) == kTfLiteError;

  TfLiteInterpreterDelete(interpreter);
  TfLiteInterpreterOptionsDelete(options);
  TfLiteModelDelete(model);
  free(b);
  free(image.file);
  free(golden.file);
  if (!same) return Fail("the output differs from the golden output");
  if (!resize_failed || messages.count != 1 || strstr(messages.last, "out of range") == NULL) {
    return Fail("the error reporter did not receive the misuse message");
  }
  printf("output matches the golden (%d bytes); error reporter called once\n", output_size);
  return 0;
}
