#ifndef TACTUS_CALSASHIMS_H
#define TACTUS_CALSASHIMS_H
#include <alsa/asoundlib.h>
#include <sys/prctl.h>

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
/// snd_seq_ev_set_sysex is a macro: marks the event variable-length and points it at `data`.
static inline void tactus_seq_ev_set_sysex(snd_seq_event_t *ev, unsigned int length, void *data) { snd_seq_ev_set_sysex(ev, length, data); }
static inline void tactus_alsa_silent_error_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
/// alsa-lib prints its own errors to stderr ("ALSA lib seq_hw.c:…"); Tactus reports
/// each failure once in its own words, so the library's printer is silenced.
/// The handler is variadic, which Swift cannot define.
static inline void tactus_alsa_silence_library_errors(void) { snd_lib_error_set_handler(tactus_alsa_silent_error_handler); }
/// Names the calling thread (shown by `top -H`, `ps -L`, gdb): the ALSA clock and
/// input threads. prctl is variadic and pthread_setname_np needs _GNU_SOURCE, so
/// neither imports into Swift.
static inline int tactus_set_thread_name(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }
#endif
