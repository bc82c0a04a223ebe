/* A program outside Octet's tree, built against an installed Octet: runs f(x) = sin(x) + x +
 * sin(2x) (the model octet_make_sin_model writes) at x = 2 through the C API.
 * usage: consumer MODEL   prints f(2); exit 0 if it is right. */
#include <stdio.h>

#include "tensorflow/lite/c/c_api.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: consumer MODEL\n");
    return 2;
  }
  TfLiteModel* model = TfLiteModelCreateFromFile(argv[1]);
  TfLiteInterpreter* interpreter = model ? TfLiteInterpreterCreate(model, NULL) : NULL;
  TfLiteModelDelete(model);
  if (interpreter == NULL || TfLiteInterpreterAllocateTensors(interpreter) != kTfLiteOk) {
    TfLiteInterpreterDelete(interpreter);
    return 1;
  }
  const float x = 2.0f;
  float y = 0.0f;
  int ok = TfLiteTensorCopyFromBuffer(TfLiteInterpreterGetInputTensor(interpreter, 0), &x,
                                      sizeof(x)) == kTfLiteOk &&
           TfLiteInterpreterInvoke(interpreter) == kTfLiteOk &&
           TfLiteTensorCopyToBuffer(TfLiteInterpreterGetOutputTensor(interpreter, 0), &y,
                                    sizeof(y)) == kTfLiteOk;
  TfLiteInterpreterDelete(interpreter);
  /* sin(2) + 2 + sin(4) = 2.152495 */
  ok = ok && y > 2.15249f && y < 2.15250f;
  printf("octet %s: f(2) = %f\n", TfLiteVersion(), y);
  return ok ? 0 : 1;
}
