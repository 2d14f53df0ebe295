import CJack
@testable import TactusJACK

/// The `CycleHost` of the simulated process loop: what libjack would answer
/// in this cycle, from the loop's virtual frame clock and host time, its
/// port buffers, its scripted transport and its scripted Link session. Test
/// code: it allocates and holds class references, which only the callback's
/// own host may not.
struct SimulatedHost: CycleHost {
    let loop: SimulatedProcessLoop

    var link: ScriptedLinkSession? { loop.link }

    /// The cycle's times, a late wake-up's `lateWakeUps` later (jack2 reports
    /// the time it woke); Link's clock, which the cycle captures the session
    /// at, reads that time too.
    mutating func cycleTimes(frames: jack_nframes_t, sampleRate: Int,
                             offset: inout RawClockOffset) -> (frame: jack_nframes_t, microseconds: Int64, nextMicroseconds: Int64) {
        offset.microseconds = 0
        let late = loop.lateWakeUps[loop.jackFrame] ?? 0
        let now = loop.microseconds(atJackFrame: loop.jackFrame) + late
        loop.link?.now = now
        return (loop.jackFrame, now, loop.microseconds(atJackFrame: loop.jackFrame &+ frames))
    }

    mutating func buffer(_ port: CyclePort, _ frames: jack_nframes_t) -> UnsafeMutableRawPointer? {
        switch port {
        case .click: UnsafeMutableRawPointer(loop.click)
        case .feedback: UnsafeMutableRawPointer(loop.feedback)
        case .clock: loop.clock.pointer
        case .control: loop.control.pointer
        case .clockIn: loop.options.clockIn && !loop.options.clockInFromALSA ? loop.clockIn.pointer : nil
        case .sync: Self.hasSyncLine(0, loop.options) ? UnsafeMutableRawPointer(loop.sync) : nil
        case .syncRun: Self.hasSyncLine(1, loop.options) ? UnsafeMutableRawPointer(loop.syncRun) : nil
        }
    }

    /// The ports `JackPorts.register` makes for `--sync-out`: `sync` (line 0),
    /// and `sync_run` (line 1) for a kind with a second line.
    static func hasSyncLine(_ line: Int, _ options: JackRunOptions) -> Bool {
        guard let sync = options.engine.sync else { return false }
        return line == 0 || sync.hasSecondLine
    }

    mutating func transportQuery(_ position: UnsafeMutablePointer<jack_position_t>) -> jack_transport_state_t {
        loop.transport.query(position)
    }

    func midiEventCount(_ buffer: UnsafeMutableRawPointer) -> UInt32 { SimulatedMIDIBuffer.at(buffer).count }

    func midiEvent(_ buffer: UnsafeMutableRawPointer, _ index: UInt32) -> jack_midi_event_t? { SimulatedMIDIBuffer.at(buffer).event(index) }

    mutating func clearMIDI(_ buffer: UnsafeMutableRawPointer) { SimulatedMIDIBuffer.at(buffer).clear() }

    mutating func reserveMIDI(_ buffer: UnsafeMutableRawPointer, _ offset: jack_nframes_t, _ size: Int) -> UnsafeMutablePointer<jack_midi_data_t>? {
        SimulatedMIDIBuffer.at(buffer).reserve(offset, size)
    }
}
