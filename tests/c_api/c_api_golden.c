/* Runs a corpus model through the TFLite C API only (C11, linked against liboctet.so) and
 * checks every output byte against the golden outputs of ../shared/models/manifest.json.
 * usage: c_api_golden [MODELS_DIR]   ($OCTET_MODELS wins); exit 77 if the corpus is absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test_util.h"
#include "tensorflow/lite/c/c_api.h"

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static const char* const kModel = "mlperf_ic_resnet8_int8.tflite";
/* The int8 group's cases of this model in manifest.json (inputs and outputs are int8). */
static const char* const kCases[] = {"bird", "cat", "seed1", "seed2"};
enum { kNumCases = sizeof(kCases) / sizeof(kCases[0]) };

/* Runs every case on one interpreter; returns how many matched the golden output exactly. */
static int RunCases(TfLiteInterpreter* interpreter, const char* models) {
  CHECK(TfLiteInterpreterGetInputTensorCount(interpreter) == 1);
  CHECK(TfLiteInterpreterGetOutputTensorCount(interpreter) == 1);
  CHECK(TfLiteInterpreterAllocateTensors(interpreter) == kTfLiteOk);
  TfLiteTensor* input = TfLiteInterpreterGetInputTensor(interpreter, 0);
  CHECK(input != NULL);
  CHECK(TfLiteTensorType(input) == kTfLiteInt8);
  CHECK(TfLiteTensorNumDims(input) == 4);
  CHECK(TfLiteTensorDim(input, 0) == 1 && TfLiteTensorDim(input, 1) == 32);
  CHECK(TfLiteTensorDim(input, 2) == 32 && TfLiteTensorDim(input, 3) == 3);
  CHECK(TfLiteTensorByteSize(input) == 32 * 32 * 3);
  CHECK(TfLiteTensorName(input) != NULL && TfLiteTensorData(input) != NULL);
  const TfLiteQuantizationParams q = TfLiteTensorQuantizationParams(input);
  CHECK(q.scale == 1.0f && q.zero_point == -128);

  int passed = 0;
  for (int c = 0; c < kNumCases; ++c) {
    char path[4096];
    NpyArray in, golden;
    snprintf(path, sizeof(path), "%s/cases/mlperf_ic_resnet8_int8/%s/input_0.npy", models,
             kCases[c]);
    CHECK(ReadNpy(path, &in) == 0);
    snprintf(path, sizeof(path), "%s/cases/mlperf_ic_resnet8_int8/%s/output_0.npy", models,
             kCases[c]);
    CHECK(ReadNpy(path, &golden) == 0);
    CHECK(in.bytes == TfLiteTensorByteSize(input));
    CHECK(TfLiteTensorCopyFromBuffer(input, in.data, in.bytes) == kTfLiteOk);
    CHECK(TfLiteInterpreterInvoke(interpreter) == kTfLiteOk);
    const TfLiteTensor* output = TfLiteInterpreterGetOutputTensor(interpreter, 0);
    CHECK(output != NULL && TfLiteTensorType(output) == kTfLiteInt8);
    CHECK(TfLiteTensorByteSize(output) == golden.bytes);
    signed char result[64];
    CHECK(golden.bytes <= sizeof(result));
    CHECK(TfLiteTensorCopyToBuffer(output, result, golden.bytes) == kTfLiteOk);
    CHECK(memcmp(result, TfLiteTensorData(output), golden.bytes) == 0);
    if (memcmp(result, golden.data, golden.bytes) == 0) {
      ++passed;
    } else {
      fprintf(stderr, "case %s: output differs from the golden\n", kCases[c]);
    }
    free(in.file);
    free(golden.file);
  }
  return passed;
}

int main(int argc, char** argv) {
  const char* models = ModelsDir(argc, argv);
  char model_path[4096];
  snprintf(model_path, sizeof(model_path), "%s/%s", models, kModel);
  if (!FileExists(model_path)) {
    printf("skipped: no shared model corpus at %s (set OCTET_MODELS)\n", models);
    return OCTET_TEST_SKIP;
  }
  CHECK(TfLiteVersion() != NULL && TfLiteVersion()[0] != '\0');
  CHECK(TfLiteSchemaVersion() == 3);

  /* Once from the file, once from bytes in memory; each model is deleted right after its
   * interpreter is created, as the API allows. */
  size_t size = 0;
  unsigned char* bytes = ReadFile(model_path, &size);
  CHECK(bytes != NULL);
  TfLiteModel* models_to_run[2] = {TfLiteModelCreateFromFile(model_path),
                                   TfLiteModelCreate(bytes, size)};
  int passed = 0;
  for (int m = 0; m < 2; ++m) {
    CHECK(models_to_run[m] != NULL);
    TfLiteInterpreterOptions* options = TfLiteInterpreterOptionsCreate();
    CHECK(options != NULL);
    TfLiteInterpreterOptionsSetNumThreads(options, 2);
    TfLiteInterpreter* interpreter = TfLiteInterpreterCreate(models_to_run[m], options);
    TfLiteInterpreterOptionsDelete(options);
    TfLiteModelDelete(models_to_run[m]);
    CHECK(interpreter != NULL);
    passed += RunCases(interpreter, models);
    TfLiteInterpreterDelete(interpreter);
  }
  free(bytes); /* only now: an interpreter made by TfLiteModelCreate reads the caller's bytes */
  printf("%d of %d runs of %s (TfLite %s) match the golden outputs\n", passed, 2 * kNumCases,
         kModel, TfLiteVersion());
  return passed == 2 * kNumCases ? 0 : 1;
}
