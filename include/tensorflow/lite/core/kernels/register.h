#pragma once
#include "tensorflow/lite/kernels/register.h"
