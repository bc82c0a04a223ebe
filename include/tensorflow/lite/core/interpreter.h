// Newer TFLite code includes the interpreter from core/; Octet keeps one definition.
#pragma once
#include "tensorflow/lite/interpreter.h"
