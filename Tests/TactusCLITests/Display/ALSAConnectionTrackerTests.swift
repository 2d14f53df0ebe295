import Testing
@testable import TactusCLI

@Suite("ALSA connections for the display, from the ALSA client's report lines")
struct ALSAConnectionTrackerTests {
    @Test func connectionsMadeAndLostAreFollowed() {
        let tracker = ALSAConnectionTracker()
        #expect(tracker.note("ALSA: USB Keystation 49:USB Keystation 49 MIDI 1 (24:0) → control"))
        #expect(tracker.note("ALSA: clock → Qtractor:Qtractor MIDI in (130:0)"))
        #expect(tracker.note("ALSA: clock → Qtractor:Qtractor MIDI in (130:0)"), "said again: still one")
        #expect(tracker.current == [
            MIDIConnection(.alsa, .control, "USB Keystation 49:USB Keystation 49 MIDI 1 (24:0)"),
            MIDIConnection(.alsa, .clock, "Qtractor:Qtractor MIDI in (130:0)"),
        ])
        #expect(tracker.note("ALSA: USB Keystation 49:USB Keystation 49 MIDI 1 (24:0) went away; it will be connected again when it comes back"))
        #expect(tracker.current == [MIDIConnection(.alsa, .clock, "Qtractor:Qtractor MIDI in (130:0)")])
    }

    /// Connections another client made (aconnect, a DAW) come and go in the same words.
    @Test func aConnectionUndoneElsewhereIsDropped() {
        let tracker = ALSAConnectionTracker()
        #expect(tracker.note("ALSA: clock → Qtractor:Qtractor MIDI in (130:0)"))
        #expect(tracker.note("ALSA: seq66:seq66 out (129:1) → control"))
        #expect(tracker.note("ALSA: disconnected clock → Qtractor:Qtractor MIDI in (130:0)"))
        #expect(tracker.current == [MIDIConnection(.alsa, .control, "seq66:seq66 out (129:1)")])
        #expect(tracker.note("ALSA: disconnected seq66:seq66 out (129:1) → control"))
        #expect(tracker.current.isEmpty)
        #expect(!tracker.note("ALSA: disconnected something else"))
    }

    @Test func otherLinesAreNotConnections() {
        let tracker = ALSAConnectionTracker()
        #expect(!tracker.note("ALSA: no MIDI source 'Keystation' yet; it will be connected when it appears"))
        #expect(!tracker.note("ALSA sequencer: the clock queue runs on the system timer"))
        #expect(!tracker.note("JACK server gone"))
        #expect(tracker.current.isEmpty)
    }
}
