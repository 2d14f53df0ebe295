/*
 * Tactus's C face of Ableton Link (Debian's header-only <ableton/Link.hpp>),
 * so the Swift targets import it as plain C. One `tactus_link` owns one Link
 * instance and two session states: one the real-time thread captures into and
 * commits from (Link's audio-thread API, no locks), one for every other
 * thread (Link's application-thread API). Times are Link's clock in
 * microseconds: CLOCK_MONOTONIC_RAW on Linux, the clock jack2's cycle times use.
 * Beats and the quantum are Link's beats (Tactus counts one a beat of its meter).
 */
#ifndef TACTUS_CLINK_H
#define TACTUS_CLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tactus_link tactus_link;
/* A session state owned by its `tactus_link`: the audio one or the application one. */
typedef struct tactus_link_state tactus_link_state;

/* A disabled Link instance at `bpm`; NULL when Link could not be set up. */
tactus_link *tactus_link_create(double bpm);
void tactus_link_destroy(tactus_link *link);

void tactus_link_enable(tactus_link *link, bool enable);
bool tactus_link_is_enabled(const tactus_link *link);
void tactus_link_enable_start_stop_sync(tactus_link *link, bool enable);
bool tactus_link_is_start_stop_sync_enabled(const tactus_link *link);
/* Peers in the session besides this one. */
size_t tactus_link_peers(const tactus_link *link);
/* Link's clock now (µs). */
int64_t tactus_link_clock_micros(const tactus_link *link);

/* How often Link called each of its callbacks (peer count, tempo, start/stop),
 * counted with atomics on Link's own thread. */
uint64_t tactus_link_peer_callbacks(const tactus_link *link);
uint64_t tactus_link_tempo_callbacks(const tactus_link *link);
uint64_t tactus_link_start_stop_callbacks(const tactus_link *link);

/* Real-time thread only: capture into the audio state and return it; commit it. */
tactus_link_state *tactus_link_capture_audio(tactus_link *link);
void tactus_link_commit_audio(tactus_link *link);
/* Any other thread (one at a time): the same with the application state. */
tactus_link_state *tactus_link_capture_app(tactus_link *link);
void tactus_link_commit_app(tactus_link *link);

double tactus_link_tempo(const tactus_link_state *state);
void tactus_link_set_tempo(tactus_link_state *state, double bpm, int64_t at_micros);
double tactus_link_beat_at_time(const tactus_link_state *state, int64_t micros, double quantum);
double tactus_link_phase_at_time(const tactus_link_state *state, int64_t micros, double quantum);
int64_t tactus_link_time_at_beat(const tactus_link_state *state, double beat, double quantum);
void tactus_link_request_beat_at_time(tactus_link_state *state, double beat, int64_t micros, double quantum);
/* Beat `beat` at `micros` whatever the peers do (Link's forceBeatAtTime: for an external clock). */
void tactus_link_force_beat_at_time(tactus_link_state *state, double beat, int64_t micros, double quantum);
void tactus_link_set_is_playing(tactus_link_state *state, bool playing, int64_t micros);
bool tactus_link_is_playing(const tactus_link_state *state);
int64_t tactus_link_time_for_is_playing(const tactus_link_state *state);
void tactus_link_set_is_playing_and_request_beat_at_time(tactus_link_state *state, bool playing, int64_t micros,
                                                         double beat, double quantum);

#ifdef __cplusplus
}
#endif

#endif
