import CALSA
import CALSAShims
import Testing
@testable import TactusALSA
import TactusCore

extension ALSASequencerTests {
    /// Waits up to `timeout` µs until `count` report lines contain `text`.
    private func waitForReport(_ log: ReportLog, containing text: String, count: Int = 1, timeout: Int64 = 3_000_000) -> Bool {
        let deadline = MonotonicClock.microseconds() + timeout
        while MonotonicClock.microseconds() < deadline {
            if log.lines.filter({ $0.contains(text) }).count >= count { return true }
            MonotonicClock.sleep(microseconds: 5_000)
        }
        return false
    }

    /// `--alsa-clock-to NAME:PORT` and `--alsa-control-from CLIENT:PORT` (by number)
    /// connect at start to ports that exist.
    @Test func clockToAndControlFromConnectAtStartByNameAndByNumber() throws {
        let daw = try TestSequencerClient(name: "Test DAW", portName: "MIDI in/out")
        var options = ALSAOptions()
        options.clockDestinations = [try PortSpecifier(parsing: "Test DAW:MIDI in/out")]
        options.controlSources = [try PortSpecifier(parsing: "\(daw.id):\(daw.port)")]
        let log = ReportLog()
        let client = try ALSAClient.forTest(options: options, messages: log)
        defer { client.stop() }
        let ring = ControlRing()
        client.startInput(into: ring.pointer)

        #expect(log.lines == ["ALSA: clock → Test DAW:MIDI in/out (\(daw.address))", "ALSA: Test DAW:MIDI in/out (\(daw.address)) → control"])
        daw.send(.channelPressure(channel: MIDIChannel(number: 1)!, pressure: UInt7(77)!))
        #expect(ring.receive(count: 1).map(\.message) == [.channelPressure(channel: MIDIChannel(number: 1)!, pressure: UInt7(77)!)])

        // The clock port is subscribed to the DAW: a Start scheduled now reaches it.
        let cycle = SimulatedJACKCycle(tempo: BPM(120))
        client.startClock(events: cycle.clockEvents, reference: cycle.reference)
        cycle.send(.start)
        cycle.start()
        let got = daw.receive(for: 2_000_000) { all in all.contains { $0.type == SND_SEQ_EVENT_CLOCK.rawValue } }
        cycle.stop()
        client.stop()   // before `cycle`, whose ring and reference the clock thread reads, goes away
        withExtendedLifetime(cycle) {}
        #expect(got.first?.type == SND_SEQ_EVENT_START.rawValue)
    }

    /// A keyboard plugged in after start is connected when the System Announce port
    /// reports it; unplugged, it is noted (not fatal); plugged in again, reconnected.
    @Test func aKeyboardPluggedInLaterIsConnectedAndAnUnpluggedOneIsNotedNotFatal() throws {
        var options = ALSAOptions()
        options.controlSources = [try PortSpecifier(parsing: "Late Keyboard")]
        let log = ReportLog()
        let client = try ALSAClient.forTest(options: options, messages: log)
        defer { client.stop() }
        let ring = ControlRing()
        client.startInput(into: ring.pointer)
        #expect(log.lines == ["ALSA: no MIDI source 'Late Keyboard' yet; it will be connected when it appears"])

        let note = MIDIMessage.noteOn(channel: MIDIChannel(number: 1)!, note: UInt7(60)!, velocity: UInt7(90)!)
        for plug in 1...2 {
            var keyboard: TestSequencerClient? = try TestSequencerClient(name: "Late Keyboard")
            let address = keyboard!.address
            #expect(waitForReport(log, containing: "→ control", count: plug), "plug \(plug)")
            #expect(log.lines.last == "ALSA: Late Keyboard:port (\(address)) → control")
            keyboard!.send(note)
            #expect(ring.receive(count: 1).map(\.message) == [note], "plug \(plug)")
            keyboard = nil
            #expect(waitForReport(log, containing: "went away", count: plug), "unplug \(plug)")
            #expect(log.lines.last == "ALSA: Late Keyboard:port (\(address)) went away; it will be connected again when it comes back")
        }
        #expect(log.lines.filter { $0.contains("→ control") }.count == 2)
    }

    /// Connections made by another client (aconnect, a DAW subscribing itself to
    /// the clock, a patchbay) are reported like Tactus' own, for the display and the
    /// log, and so is their removal; Tactus' own connections are not reported twice.
    @Test func connectionsMadeAndUndoneByAnotherClientAreReported() throws {
        let daw = try TestSequencerClient(name: "Other DAW", portName: "MIDI in/out")
        let patchbay = try TestSequencerClient(name: "Patchbay")
        let log = ReportLog()
        let client = try ALSAClient.forTest(options: ALSAOptions(), messages: log)
        defer { client.stop() }
        client.startInput(into: nil)
        #expect(log.lines.isEmpty)

        try patchbay.subscribe(from: client.clockPort, to: daw.address)
        #expect(waitForReport(log, containing: "clock → "), "\(log.lines)")
        try daw.subscribe(from: daw.address, to: client.controlPort)
        #expect(waitForReport(log, containing: "→ control"), "\(log.lines)")
        try patchbay.unsubscribe(from: client.clockPort, to: daw.address)
        #expect(waitForReport(log, containing: "disconnected clock"), "\(log.lines)")
        try daw.unsubscribe(from: daw.address, to: client.controlPort)
        #expect(waitForReport(log, containing: "disconnected Other DAW"), "\(log.lines)")
        let port = "Other DAW:MIDI in/out (\(daw.address))"
        #expect(log.lines == ["ALSA: clock → \(port)", "ALSA: \(port) → control",
                              "ALSA: disconnected clock → \(port)", "ALSA: disconnected \(port) → control"])
    }

    /// An `--alsa-clock-to` connection undone by hand (aconnect -d) while the DAW
    /// stays is reported as disconnected; the one Tactus made is not reported twice.
    @Test func aWantedConnectionUndoneByHandIsReportedOnce() throws {
        let daw = try TestSequencerClient(name: "Hand DAW", portName: "in")
        let patchbay = try TestSequencerClient(name: "Patchbay")
        var options = ALSAOptions()
        options.clockDestinations = [try PortSpecifier(parsing: "Hand DAW:in")]
        let log = ReportLog()
        let client = try ALSAClient.forTest(options: options, messages: log)
        defer { client.stop() }
        client.startInput(into: nil)
        try patchbay.unsubscribe(from: client.clockPort, to: daw.address)
        #expect(waitForReport(log, containing: "disconnected"), "\(log.lines)")
        MonotonicClock.sleep(microseconds: 100_000)
        #expect(log.lines == ["ALSA: clock → Hand DAW:in (\(daw.address))", "ALSA: disconnected clock → Hand DAW:in (\(daw.address))"])
    }
}
