import Testing
#if canImport(Glibc)
import Glibc
#endif
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
        // Our words: what is off, why, and what still works; not alsa-lib's call and errno.
        #expect(log.lines.first == "ALSA clock off: there is no /dev/snd/seq (load it with sudo modprobe snd-seq); the JACK MIDI clock and control ports still work")
        #expect(ALSAClient.unavailable(SequencerError("snd_seq_open", subject: "default", code: -EACCES))
                == "ALSA clock off: /dev/snd/seq may not be opened by this user (join the audio group); the JACK MIDI clock and control ports still work")
    }
}
