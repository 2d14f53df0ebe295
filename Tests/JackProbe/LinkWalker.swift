#if canImport(Glibc)
import Glibc
#endif
import TactusCore
import TactusLink

/// A Link peer that is not Tactus: it joins the session and commits a new
/// tempo every `--every` ms (from Link's application-thread API) for
/// `--seconds`, so a test can watch a Tactus peer follow a session whose tempo
/// keeps moving. Prints `peers N` once it sees another peer and, at the end,
/// `commits N peers N`. Only ever inside a private network namespace.
enum LinkWalker {
    static func main(_ args: inout Arguments) -> Int32 {
        let seconds = Double(args.value("--seconds") ?? "10") ?? 10
        let every = Int(args.value("--every") ?? "100") ?? 100
        let tempi = (args.value("--tempi") ?? "120,121").split(separator: ",").compactMap { Double($0) }
        guard !tempi.isEmpty else { fail("link-walker --tempi BPM,BPM.. has no tempo") }
        let session: LinkSession
        do { session = try LinkSession(tempo: BPM(tempi[0])) } catch { fail("\(error)") }
        session.enable(true)
        let started = ProbeClient.monotonicMicroseconds()
        var commits = 0
        var sawPeer = false
        while Double(ProbeClient.monotonicMicroseconds() - started) < seconds * 1_000_000 {
            usleep(UInt32(every * 1000))
            session.commitTempo(tempi[commits % tempi.count])
            commits += 1
            if !sawPeer && session.peers > 0 {
                sawPeer = true
                say("peers \(session.peers)")
            }
        }
        say("commits \(commits) peers \(session.peers)")
        session.enable(false)
        return 0
    }

    /// Unbuffered, so a test reading the log sees it at once.
    static func say(_ line: String) {
        _ = (line + "\n").withCString { write(1, $0, strlen($0)) }
    }
}
