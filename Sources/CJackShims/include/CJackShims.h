#ifndef TACTUS_CJACKSHIMS_H
#define TACTUS_CJACKSHIMS_H
#include <jack/jack.h>
#include <malloc.h>

/// jack_client_open is variadic (the server name follows JackServerName in the
/// option bits); Swift cannot call C variadics, so this fixes the argument list.
static inline jack_client_t *tactus_jack_client_open(const char *client_name,
                                                     jack_options_t options,
                                                     jack_status_t *status,
                                                     const char *server_name) {
    if (server_name != NULL) {
        return jack_client_open(client_name, (jack_options_t)(options | JackServerName), status, server_name);
    }
    return jack_client_open(client_name, options, status);
}

/// malloc_trim is declared in <malloc.h>, which Glibc's Swift module leaves out.
/// The JACK client trims the heap after building an engine for a new sample rate.
static inline int tactus_malloc_trim(void) { return malloc_trim(0); }

/// One malloc arena for every thread (mallopt M_ARENA_MAX, <malloc.h>): see
/// JackMetronome.init for why the JACK client asks for it.
static inline int tactus_single_malloc_arena(void) { return mallopt(M_ARENA_MAX, 1); }
#endif
