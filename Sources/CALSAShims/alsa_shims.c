#include "CALSAShims.h"
