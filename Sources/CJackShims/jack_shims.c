#include "CJackShims.h"
