import Synchronization
import TactusCore
#if canImport(Glibc)
import Glibc
#endif

/// The control thread of a JACK run, on the thread that calls `run` (the main
/// thread, which created the metronome first: SIGINT and SIGTERM are blocked
/// before any other thread starts).
///
/// It owns its clock: `ControlLoop.run` sleeps on the metronome's
/// `ControlWakeup` until the earliest deadline of a round (a pressure step, a
/// redraw, the supervisor's retry while the server is gone) or until something
/// posts it: the process callback in a cycle with control input, the ALSA input
/// and key reader threads, JACK's notifications, the signal `Watcher`. Each
/// round: a signal first (then MIDI Stop out and the client closed), then the
/// supervisor (`JackMetronome.service`), then the application's `round`, which
/// polls the control loop (itself or through a session). Nothing runs on a
/// fixed tick, so the pressure steps fall on their own deadlines, whatever JACK does.
public enum JackControlThread {
    /// Runs until SIGINT or SIGTERM, then stops cleanly and returns the exit
    /// status, 0. `round` returns when it next needs to run by itself (nil:
    /// only input or a notice gives it work).
    public static func run(_ loop: ControlLoop<MonotonicClock>, metronome: JackMetronome,
                           round: () -> ControlTime?) -> Int32 {
        let signals = TerminationSignals.Watcher(wakeup: metronome.wakeup)
        if !metronome.isConnected { metronome.connect() }
        loop.run(wakeup: metronome.wakeup) {
            if let signal = signals.received {
                // `q` is the player's own way out: no "SIGINT received" to read.
                metronome.shutdown(signal: quitByKey.load(ordering: .acquiring) ? nil : signal)
                loop.requestStop()
                return nil
            }
            let supervisor = metronome.service()
            return ControlTime.earliest(supervisor, round())
        }
        signals.finish()
        return 0
    }

    /// Asks for the way out SIGINT takes (MIDI Stop, client closed), from the
    /// control thread itself (`q` on the terminal): sent to the process, so the
    /// `Watcher` takes it.
    public static func requestQuit() {
        quitByKey.store(true, ordering: .releasing)
        kill(getpid(), SIGINT)
    }

    /// Set by `requestQuit`: the SIGINT that follows is Tactus' own.
    private static let quitByKey = Atomic<Bool>(false)
}
