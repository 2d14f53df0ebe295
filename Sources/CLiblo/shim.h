#include <lo/lo.h>
