// Newer TFLite code includes the resolver interface from core/api/.
#pragma once
#include "tensorflow/lite/op_resolver.h"
