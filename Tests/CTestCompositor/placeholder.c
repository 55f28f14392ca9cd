#include "CTestCompositor.h"
