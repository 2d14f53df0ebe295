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

/// Writes a page in every 4 kB of the next 128 kB of the calling thread's
/// stack (the real-time wiki's stack_prefault): called on the process thread
/// before its first cycle, so that under mlockall(MCL_ONFAULT) no cycle is the
/// first to touch a page of its stack. A cycle uses a few kilobytes; jack2's
/// threads have 512 kB stacks.
static inline void tactus_prefault_stack(void) {
    volatile unsigned char stack[128 * 1024];
    for (unsigned long i = 0; i < sizeof stack; i += 4096) stack[i] = 0;
}

/// Makes every writable page of the program's own image (its .data and .bss)
/// and the Swift runtime's .bss (its metadata allocation pool) resident, as a
/// write would, without writing: madvise(MADV_POPULATE_WRITE), Linux 5.14.
/// Under mlockall(MCL_ONFAULT) they stay locked. The bytes populated, or
/// -errno. See MemoryLock.populateProgramData.
long tactus_populate_program_data(void);

/// One malloc arena for every thread (mallopt M_ARENA_MAX, <malloc.h>): see
/// JackMetronome.init for why the JACK client asks for it.
static inline int tactus_single_malloc_arena(void) { return mallopt(M_ARENA_MAX, 1); }
#endif
