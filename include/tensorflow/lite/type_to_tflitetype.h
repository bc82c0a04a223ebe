#pragma once
#include "tensorflow/lite/portable_type_to_tflitetype.h"
