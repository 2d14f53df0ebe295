#if canImport(Glibc)
import Glibc
#endif
import TactusCore
import TactusJACK
import TactusLink

/// A Link peer that is not Tactus and changes nothing: it joins the session
/// and reads it from Link's application-thread API every `--every` ms, as any
/// other app on the network would, so a test can judge where that app plays
/// its beats. Each read is a line `P host_us tempo beat phase playing
/// playing_since_us peers` (Link's clock: CLOCK_MONOTONIC_RAW on Linux, the
/// clock of jack2's cycle times, so a recorder's `T` lines place them on the
/// server's frames), written to `--out` when it ends (`--seconds`, or SIGTERM).
/// With `--start-stop` it shares start and stop. Only ever inside a private
/// network namespace.
enum LinkListener {
    static func main(_ args: inout Arguments) -> Int32 {
        let seconds = Double(args.value("--seconds") ?? "10") ?? 10
        let every = Int(args.value("--every") ?? "2") ?? 2
        let quantum = Double(args.value("--quantum") ?? "4") ?? 4
        let startStop = args.flag("--start-stop")
        guard let out = args.value("--out") else { fail("link-listener needs --out FILE") }
        TerminationSignals.block()
        let session: LinkSession
        do { session = try LinkSession(tempo: BPM(120)) } catch { fail("\(error)") }
        session.shareStartStop(startStop)
        session.enable(true)
        let started = ProbeClient.monotonicMicroseconds()
        var text = "# quantum \(quantum)\n"
        text.reserveCapacity(Int(seconds * 1000 / Double(max(every, 1))) * 80)
        while Double(ProbeClient.monotonicMicroseconds() - started) < seconds * 1_000_000 {
            let now = session.clockMicroseconds
            let s = session.snapshot(quantum: quantum, at: now)
            text += "P \(now) \(s.tempo) \(s.beat) \(s.phase) \(s.playing ? 1 : 0) \(s.playingSince) \(s.peers)\n"
            if TerminationSignals.wait(milliseconds: every) != nil { break }
        }
        session.enable(false)
        writeFile(out, text)
        return 0
    }
}
