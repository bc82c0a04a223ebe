#pragma once
#include "tensorflow/lite/model.h"
