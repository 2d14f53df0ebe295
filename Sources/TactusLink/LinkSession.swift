import CLink
import TactusCore

/// One Ableton Link instance (Sources/CLink over Debian's `<ableton/Link.hpp>`):
/// joining and leaving the session, its peers, and what the control thread and
/// the display read of it. The real-time thread reaches the same instance only
/// through `LinkAudio` (Link's audio-thread API).
///
/// Link announces itself by multicast on every network interface it finds once
/// enabled, so tests enable it only inside a private network namespace
/// (scripts/lib/netns).
public final class LinkSession: @unchecked Sendable {
    let handle: OpaquePointer

    /// A session of one, at `tempo`, not yet joined (`enable`).
    public init(tempo: BPM) throws(LinkError) {
        guard let handle = tactus_link_create(tempo.value) else { throw .unavailable }
        self.handle = handle
    }

    deinit { tactus_link_destroy(handle) }

    /// Joins (true) or leaves (false) the session on the network.
    public func enable(_ on: Bool) { tactus_link_enable(handle, on) }
    public var isEnabled: Bool { tactus_link_is_enabled(handle) }

    /// Whether start and stop are shared with the peers that share them too (`--link-start-stop`).
    public func shareStartStop(_ on: Bool) { tactus_link_enable_start_stop_sync(handle, on) }
    public var sharesStartStop: Bool { tactus_link_is_start_stop_sync_enabled(handle) }

    /// The other peers in the session.
    public var peers: Int { Int(tactus_link_peers(handle)) }

    /// Link's clock now (µs): CLOCK_MONOTONIC_RAW on Linux, jack2's clock.
    public var clockMicroseconds: Int64 { tactus_link_clock_micros(handle) }

    /// How often Link reported a new peer count, tempo, start/stop state.
    public var callbackCounts: (peers: UInt64, tempo: UInt64, startStop: UInt64) {
        (tactus_link_peer_callbacks(handle), tactus_link_tempo_callbacks(handle), tactus_link_start_stop_callbacks(handle))
    }

    /// The real-time thread's access to this instance (valid while the session lives).
    public var audio: LinkAudio { LinkAudio(handle: handle) }

    /// The session as the application thread sees it now: the tempo, the phase
    /// within `quantum` at `microseconds` (Link's clock; nil: now), whether it plays.
    public func snapshot(quantum: Double, at microseconds: Int64? = nil) -> LinkSnapshot {
        let state = tactus_link_capture_app(handle)
        let time = microseconds ?? clockMicroseconds
        return LinkSnapshot(tempo: tactus_link_tempo(state), beat: tactus_link_beat_at_time(state, time, quantum),
                            phase: tactus_link_phase_at_time(state, time, quantum), playing: tactus_link_is_playing(state),
                            playingSince: tactus_link_time_for_is_playing(state), peers: peers)
    }

    /// Sets the session tempo from the application thread (for peers that are
    /// not Tactus's engine: the tests' tempo walker).
    public func commitTempo(_ bpm: Double) {
        let state = tactus_link_capture_app(handle)
        tactus_link_set_tempo(state, bpm, clockMicroseconds)
        tactus_link_commit_app(handle)
    }

    /// Commits what a followed source asks of the session (`SessionCommit`,
    /// docs/DESIGN.md §9): the control thread's, with the application-thread API.
    public func commit(_ commit: SessionCommit) {
        var state = LinkAudioState(state: tactus_link_capture_app(handle))
        commit.apply(to: &state)
        tactus_link_commit_app(handle)
    }

    /// Starts or stops the shared transport from the application thread,
    /// asking for beat 0 at the start (on the next bar line when others play).
    public func commitPlaying(_ playing: Bool, quantum: Double) {
        let state = tactus_link_capture_app(handle)
        tactus_link_set_is_playing_and_request_beat_at_time(state, playing, clockMicroseconds, 0, quantum)
        tactus_link_commit_app(handle)
    }
}

/// What the application thread read of the session.
public struct LinkSnapshot: Sendable, Equatable {
    public var tempo: Double
    public var beat: Double
    public var phase: Double
    public var playing: Bool
    /// When the session last started or stopped (Link's clock, µs): a peer that
    /// shares start and stop plays from there, whenever the news reached it.
    public var playingSince: Int64
    public var peers: Int
}

public enum LinkError: Error, CustomStringConvertible {
    /// Link's constructor threw (its network service could not be set up).
    case unavailable

    public var description: String {
        switch self {
        case .unavailable: "Ableton Link could not be started (its network service did not set up)"
        }
    }
}
