import Testing
@testable import TactusALSA
import TactusCore

/// Without a sequencer Tactus says so once and carries on with JACK.
@Suite(.enabled(if: !SequencerRequirement.isAvailable, "this machine has a sequencer: the missing-sequencer path cannot be seen here"))
struct MissingSequencerTests {
    @Test func aMissingSequencerIsReportedOnceAndTheRunCarriesOnWithJACK() {
        let ring = UnsafeMutablePointer<SPSCRing<TimedMIDIEvent>>.allocate(capacity: 1)
        ring.initialize(to: SPSCRing(capacity: 16))
        let reference = UnsafeMutablePointer<FrameClockReference>.allocate(capacity: 1)
        reference.initialize(to: FrameClockReference())
        defer {
            ring.deinitialize(count: 1); ring.deallocate()
            reference.deinitialize(count: 1); reference.deallocate()
        }
        let log = ReportLog()
        let client = ALSAClient.start(options: ALSAOptions(), clockStream: ClockStreamSource(events: ring, reference: reference), controlEvents: nil) { log.append($0) }
        #expect(client == nil)
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("snd_seq_open") == true)
        #expect(log.lines.first?.hasSuffix("carrying on without the ALSA sequencer (JACK only)") == true)
    }
}
