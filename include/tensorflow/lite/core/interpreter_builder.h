#pragma once
#include "tensorflow/lite/interpreter_builder.h"
