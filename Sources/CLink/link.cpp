// Tactus's C functions over Ableton Link's C++ API (<ableton/Link.hpp>, Link 3),
// written from the header's documentation. LINK_PLATFORM_LINUX selects Link's
// Linux platform: its clock is CLOCK_MONOTONIC_RAW.
#include "CLink.h"

#include <ableton/Link.hpp>

#include <atomic>
#include <chrono>
#include <new>

// The state types are one struct, so a `tactus_link_state *` is the address of
// the Link::SessionState inside it.
struct tactus_link_state {
    ableton::Link::SessionState session;
};

struct tactus_link {
    ableton::Link link;
    tactus_link_state audio;
    tactus_link_state app;
    std::atomic<uint64_t> peerCallbacks{0};
    std::atomic<uint64_t> tempoCallbacks{0};
    std::atomic<uint64_t> startStopCallbacks{0};

    explicit tactus_link(double bpm)
        : link(bpm), audio{link.captureAppSessionState()}, app{link.captureAppSessionState()} {}
};

namespace {
std::chrono::microseconds micros(int64_t value) { return std::chrono::microseconds(value); }
}

extern "C" {

tactus_link *tactus_link_create(double bpm) {
    try {
        tactus_link *link = new tactus_link(bpm);
        // The callbacks run on Link's thread; they only count (the control thread
        // reads the session itself), so they are set once here, never on the cycle.
        link->link.setNumPeersCallback([link](std::size_t) { link->peerCallbacks.fetch_add(1, std::memory_order_relaxed); });
        link->link.setTempoCallback([link](double) { link->tempoCallbacks.fetch_add(1, std::memory_order_relaxed); });
        link->link.setStartStopCallback([link](bool) { link->startStopCallbacks.fetch_add(1, std::memory_order_relaxed); });
        return link;
    } catch (...) {
        return nullptr;
    }
}

void tactus_link_destroy(tactus_link *link) { delete link; }

void tactus_link_enable(tactus_link *link, bool enable) { link->link.enable(enable); }
bool tactus_link_is_enabled(const tactus_link *link) { return link->link.isEnabled(); }
void tactus_link_enable_start_stop_sync(tactus_link *link, bool enable) { link->link.enableStartStopSync(enable); }
bool tactus_link_is_start_stop_sync_enabled(const tactus_link *link) { return link->link.isStartStopSyncEnabled(); }
size_t tactus_link_peers(const tactus_link *link) { return link->link.numPeers(); }
int64_t tactus_link_clock_micros(const tactus_link *link) { return link->link.clock().micros().count(); }

uint64_t tactus_link_peer_callbacks(const tactus_link *link) { return link->peerCallbacks.load(std::memory_order_relaxed); }
uint64_t tactus_link_tempo_callbacks(const tactus_link *link) { return link->tempoCallbacks.load(std::memory_order_relaxed); }
uint64_t tactus_link_start_stop_callbacks(const tactus_link *link) { return link->startStopCallbacks.load(std::memory_order_relaxed); }

tactus_link_state *tactus_link_capture_audio(tactus_link *link) {
    link->audio.session = link->link.captureAudioSessionState();
    return &link->audio;
}
void tactus_link_commit_audio(tactus_link *link) { link->link.commitAudioSessionState(link->audio.session); }
tactus_link_state *tactus_link_capture_app(tactus_link *link) {
    link->app.session = link->link.captureAppSessionState();
    return &link->app;
}
void tactus_link_commit_app(tactus_link *link) { link->link.commitAppSessionState(link->app.session); }

double tactus_link_tempo(const tactus_link_state *state) { return state->session.tempo(); }
void tactus_link_set_tempo(tactus_link_state *state, double bpm, int64_t at_micros) {
    state->session.setTempo(bpm, micros(at_micros));
}
double tactus_link_beat_at_time(const tactus_link_state *state, int64_t time, double quantum) {
    return state->session.beatAtTime(micros(time), quantum);
}
double tactus_link_phase_at_time(const tactus_link_state *state, int64_t time, double quantum) {
    return state->session.phaseAtTime(micros(time), quantum);
}
int64_t tactus_link_time_at_beat(const tactus_link_state *state, double beat, double quantum) {
    return state->session.timeAtBeat(beat, quantum).count();
}
void tactus_link_request_beat_at_time(tactus_link_state *state, double beat, int64_t time, double quantum) {
    state->session.requestBeatAtTime(beat, micros(time), quantum);
}
void tactus_link_force_beat_at_time(tactus_link_state *state, double beat, int64_t time, double quantum) {
    state->session.forceBeatAtTime(beat, micros(time), quantum);
}
void tactus_link_set_is_playing(tactus_link_state *state, bool playing, int64_t time) {
    state->session.setIsPlaying(playing, micros(time));
}
bool tactus_link_is_playing(const tactus_link_state *state) { return state->session.isPlaying(); }
int64_t tactus_link_time_for_is_playing(const tactus_link_state *state) { return state->session.timeForIsPlaying().count(); }
void tactus_link_set_is_playing_and_request_beat_at_time(tactus_link_state *state, bool playing, int64_t time,
                                                         double beat, double quantum) {
    state->session.setIsPlayingAndRequestBeatAtTime(playing, micros(time), beat, quantum);
}

}
