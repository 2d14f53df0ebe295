#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/transport.h>
