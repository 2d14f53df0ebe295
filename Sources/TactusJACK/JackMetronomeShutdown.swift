#if canImport(Glibc)
import Glibc
#endif
import TactusCore

/// Quitting: the slaves told first, then the client closed.
extension JackMetronome {
    /// On a signal: MIDI Stop out (with Song Position off, so Stop is the last
    /// byte a slave sees, and the clock stopped), one more cycle to deliver it,
    /// then deactivate and close. `signal`, when given, is said first.
    public func shutdown(signal: Int32? = nil) {
        if let signal { log("\(signal == SIGINT ? "SIGINT" : "SIGTERM") received: stopping") }
        if isConnected, let client {
            let cycles = shared.pointee.cycles.load(ordering: .relaxed)
            shared.pointee.quitting.store(true, ordering: .releasing)
            control.pointee.commands.push(.setSongPositionEnabled(false))
            control.pointee.commands.push(.setClockWhileStopped(false))
            control.pointee.commands.push(.stop)
            // The cycle running now may have read the commands before they were
            // pushed; the next one applies them, the one after has delivered them.
            // Each cycle while quitting posts `wakeup`; a server gone posts it too.
            let deadline = MonotonicClock().now() + 1_000_000
            while shared.pointee.cycles.load(ordering: .relaxed) < cycles + 3 && MonotonicClock().now() < deadline
                    && !notices.pointee.serverGone.load(ordering: .relaxed) {
                wakeup.wait(until: deadline)
            }
            transportLink.release(client.handle)
            client.deactivate()
            client.close()
            self.client = nil
            isConnected = false
        }
        let xruns = notices.pointee.xruns.load(ordering: .relaxed)
        let received = shared.pointee.controlInputReceived.load(ordering: .relaxed)
        let dropped = shared.pointee.controlInput.dropped.load(ordering: .relaxed)
        log("stopped after \(shared.pointee.cycles.load(ordering: .relaxed)) cycles, \(xruns) xruns; control input: \(received) events, \(dropped) dropped")
        takeCycleEvents(client: nil)
        if cycleEvents.gaps > 0 {
            let ms = (Double(cycleEvents.framesSkipped) * 1000 / Double(sampleRate)).rounded()
            log("not run for \(cycleEvents.framesSkipped) frames (\(Int(ms)) ms) in \(cycleEvents.gaps) gaps: ticks due in them went out late, clicks were dropped (docs/DESIGN.md §3.6)")
        }
        // What following a timebase master's BBT took as stale (docs/DESIGN.md §13.6),
        // read once the process callback no longer runs (the client is closed).
        if !isConnected, let follower = context?.pointee.follower,
           follower.staleReadings + follower.linesMoved + follower.readingsHeldOff > 0 {
            log("transport follow: \(follower.staleReadings) BBT readings taken as whole periods old, "
                + "\(follower.linesMoved) lines moved ahead, \(follower.readingsHeldOff) readings held off")
        }
    }
}
