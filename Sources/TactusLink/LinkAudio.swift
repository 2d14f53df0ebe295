import CLink

/// The real-time thread's view of a `LinkSession`: Link's audio-thread API
/// only (`captureAudioSessionState` / `commitAudioSessionState`), which Link
/// documents as non-blocking and real-time safe. Capture copies the session
/// out of a triple buffer (atomics, no lock); commit writes one and wakes
/// Link's thread with a condition-variable signal (`pthread_cond_signal`,
/// which never blocks), so a cycle commits only when it changed something.
///
/// A plain pointer: copying it retains nothing. Valid while its session lives.
/// The production `LinkAudioSession`: the deterministic tests drive the same
/// `LinkTimeline` on a scripted session instead.
public struct LinkAudio: LinkAudioSession, BitwiseCopyable, @unchecked Sendable {
    let handle: OpaquePointer

    /// Captures the session state for this cycle.
    @inline(__always) @_noLocks @_noAllocation
    public func capture() -> LinkAudioState {
        LinkAudioState(state: _unsafePerformance { tactus_link_capture_audio(handle) })
    }

    /// Commits what this cycle changed in the captured state (`state` is a
    /// pointer to it, inside the session: the one `capture` returned).
    @inline(__always) @_noLocks @_noAllocation
    public func commit(_ state: LinkAudioState) {
        _unsafePerformance { tactus_link_commit_audio(handle) }
    }
}

/// The session state one cycle captured (it lives inside the session; the next
/// capture overwrites it). Times are Link's clock in µs, beats Link's beats.
/// A pointer: its setters change the state inside the session, so they need
/// not be `mutating` (`LinkSessionState` allows a value that must).
public struct LinkAudioState: LinkSessionState, BitwiseCopyable {
    let state: OpaquePointer

    public var tempo: Double {
        @inline(__always) @_noLocks @_noAllocation get { _unsafePerformance { tactus_link_tempo(state) } }
    }

    @inline(__always) @_noLocks @_noAllocation
    public func setTempo(_ bpm: Double, at microseconds: Int64) {
        _unsafePerformance { tactus_link_set_tempo(state, bpm, microseconds) }
    }

    @inline(__always) @_noLocks @_noAllocation
    public func beat(at microseconds: Int64, quantum: Double) -> Double {
        _unsafePerformance { tactus_link_beat_at_time(state, microseconds, quantum) }
    }

    @inline(__always) @_noLocks @_noAllocation
    public func phase(at microseconds: Int64, quantum: Double) -> Double {
        _unsafePerformance { tactus_link_phase_at_time(state, microseconds, quantum) }
    }

    @inline(__always) @_noLocks @_noAllocation
    public func time(atBeat beat: Double, quantum: Double) -> Int64 {
        _unsafePerformance { tactus_link_time_at_beat(state, beat, quantum) }
    }

    /// Beat `beat` at `microseconds`: at once alone in the session, else at the
    /// next time with the same phase (Link's quantized launch).
    @inline(__always) @_noLocks @_noAllocation
    public func requestBeat(_ beat: Double, at microseconds: Int64, quantum: Double) {
        _unsafePerformance { tactus_link_request_beat_at_time(state, beat, microseconds, quantum) }
    }

    @inline(__always) @_noLocks @_noAllocation
    public func forceBeat(_ beat: Double, at microseconds: Int64, quantum: Double) {
        _unsafePerformance { tactus_link_force_beat_at_time(state, beat, microseconds, quantum) }
    }

    @inline(__always) @_noLocks @_noAllocation
    public func setPlaying(_ playing: Bool, at microseconds: Int64) {
        _unsafePerformance { tactus_link_set_is_playing(state, playing, microseconds) }
    }

    @inline(__always) @_noLocks @_noAllocation
    public func setPlaying(_ playing: Bool, at microseconds: Int64, requestingBeat beat: Double, quantum: Double) {
        _unsafePerformance { tactus_link_set_is_playing_and_request_beat_at_time(state, playing, microseconds, beat, quantum) }
    }

    public var isPlaying: Bool {
        @inline(__always) @_noLocks @_noAllocation get { _unsafePerformance { tactus_link_is_playing(state) } }
    }

    public var timeForIsPlaying: Int64 {
        @inline(__always) @_noLocks @_noAllocation get { _unsafePerformance { tactus_link_time_for_is_playing(state) } }
    }
}
