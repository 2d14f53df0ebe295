#ifndef TACTUS_CSHIMS_H
#define TACTUS_CSHIMS_H
#include <jack/jack.h>
#include <alsa/asoundlib.h>
#include <sys/prctl.h>

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

/// snd_seq_ev_set_* are macros in <alsa/seq_event.h> / seqmid.h.
static inline void tactus_seq_ev_clear(snd_seq_event_t *ev) { snd_seq_ev_clear(ev); }
static inline void tactus_seq_ev_set_source(snd_seq_event_t *ev, int port) { snd_seq_ev_set_source(ev, port); }
static inline void tactus_seq_ev_set_subs(snd_seq_event_t *ev) { snd_seq_ev_set_subs(ev); }
static inline void tactus_seq_ev_set_direct(snd_seq_event_t *ev) { snd_seq_ev_set_direct(ev); }
static inline void tactus_seq_ev_schedule_real(snd_seq_event_t *ev, int queue, int relative, const snd_seq_real_time_t *time) {
    snd_seq_ev_schedule_real(ev, queue, relative, (snd_seq_real_time_t *)time);
}
static inline void tactus_seq_ev_set_fixed(snd_seq_event_t *ev) { snd_seq_ev_set_fixed(ev); }
static inline void tactus_seq_ev_set_queue_pos_tick(snd_seq_event_t *ev, int q, unsigned int tick) { snd_seq_ev_set_queue_pos_tick(ev, q, tick); }
static inline void tactus_seq_ev_set_songpos(snd_seq_event_t *ev, int value) {
    ev->type = SND_SEQ_EVENT_SONGPOS; snd_seq_ev_set_fixed(ev); ev->data.control.value = value;
}
static inline void tactus_seq_ev_set_type(snd_seq_event_t *ev, int type) { ev->type = (snd_seq_event_type_t)type; snd_seq_ev_set_fixed(ev); }
static inline int tactus_seq_start_queue(snd_seq_t *seq, int q) { return snd_seq_start_queue(seq, q, NULL); }
static inline int tactus_seq_stop_queue(snd_seq_t *seq, int q) { return snd_seq_stop_queue(seq, q, NULL); }
/// Names the calling thread (shown by `top -H`, `ps -L`, gdb); prctl is variadic
/// and pthread_setname_np needs _GNU_SOURCE, so neither imports into Swift.
static inline int tactus_set_thread_name(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }
#endif
