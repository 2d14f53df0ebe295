import Foundation
import Testing
@testable import TactusCLI
import TactusCore

/// A preset switch while running brings the preset's WAV samples with it: read
/// on a thread of their own before the switch (`SampleFilesInUse.read`), carried by the
/// bar change, heard from its bar line. A sample that does not decode refuses
/// the preset with the field's path; `--sample-*` stays through every switch.
@Suite("Preset samples on a switch while running")
struct PresetSamplesSwitchTests {
    let folder = NSTemporaryDirectory() + "tactus-preset-samples-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let writer = try WAVWriter(path: folder + "/acc.wav", sampleRate: 48_000, format: .float)
        try writer.write([0.25, -0.25, 0.125], frames: 3)
        try "not a WAV file".write(toFile: folder + "/bad.wav", atomically: true, encoding: .utf8)
        let presets = [
            "plain": #"{ "format": 1, "name": "Plain", "tempo": 120 }"#,
            "sampled": #"{ "format": 1, "name": "Sampled", "tempo": 120, "sounds": { "accent": { "sample": "acc.wav" } } }"#,
            "broken": #"{ "format": 1, "name": "Broken", "tempo": 90, "sounds": { "beat": { "sample": "bad.wav" } } }"#,
        ]
        for (name, text) in presets { try text.write(toFile: "\(folder)/\(name).json", atomically: true, encoding: .utf8) }
    }

    /// The switcher of the run mode, its samples read on their thread; `wait`:
    /// each read waited for, so a switch is `.switched` (or `.refused`) at once.
    func switcher(_ inUse: SampleFilesInUse, wait: Bool = true) -> PresetSwitcher {
        var s = PresetSwitcher(library: PresetLibrary.load(PresetDirectories(shipped: folder, user: nil)), sampleRate: 48_000)
        s.samples = { entry, rate in
            let read = inUse.read(for: entry, sampleRate: rate)
            if wait, let read { _ = Self.waitFor(read) }
            return read
        }
        return s
    }

    /// Waits up to 10 s for `read` to finish; whether it did.
    static func waitFor(_ read: SampleRead) -> Bool {
        for _ in 0..<10_000 where !read.isFinished { usleep(1000) }
        return read.isFinished
    }

    /// The sounds riding on the first command pushed (the bar change), and how many commands there were.
    func pushed(_ control: UnsafeMutablePointer<EngineControl>) -> (sounds: SoundSet?, count: Int) {
        var first: EngineCommand?
        var count = 0
        while let c = control.pointee.commands.pop() { if first == nil { first = c }; count += 1 }
        guard case .changeBar(_, _, _, let sounds, _, _) = first else {
            if count > 0 { Issue.record("the first command is not the bar change: \(String(describing: first))") }
            return (nil, count)
        }
        return (sounds, count)
    }

    @Test func theSampledPresetBringsItsFileTheBrokenOneIsRefusedByItsField() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        let inUse = SampleFilesInUse(Options())
        var s = switcher(inUse)

        // The built-in sounds play: a preset with built-in sounds swaps nothing.
        #expect(s.select(named: "Plain", control: control.pointee) == .switched(s.library.entries[1]))
        let plain = pushed(control)
        #expect(plain.sounds == nil && plain.count == 4)

        // The sampled preset: its accent from acc.wav (relative to the preset's folder), the rest built in.
        guard case .switched(let entry) = s.select(named: "Sampled", control: control.pointee) else { Issue.record("not switched"); return }
        inUse.use(entry)
        let sampled = pushed(control)
        let set = try #require(sampled.sounds)
        #expect(Array(set.samples(.accent)) == [0.25, -0.25, 0.125])
        #expect(set.samples(.beat).count == ClickSynthesizer.samples(for: .beat, sampleRate: 48_000).count)
        set.deallocate()
        #expect(inUse.current == [.accent: folder + "/acc.wav"])

        // A beat sample that is not a WAV file: refused with its field, nothing pushed, the files in use unchanged.
        guard case .refused(let error) = s.select(named: "Broken", control: control.pointee) else { Issue.record("not refused"); return }
        #expect(error.issues.map(\.path) == ["sounds.beat.sample"])
        #expect(error.messages.first?.hasPrefix("\(folder)/broken.json: sounds.beat.sample: ") == true, "\(error)")
        #expect(error.messages.first?.contains("bad.wav") == true, "\(error)")
        // Nothing pushed: the tempo too travels only as a command, so it is unchanged.
        #expect(pushed(control).count == 0)
        #expect(s.current?.preset.name == "Sampled")
        #expect(inUse.current == [.accent: folder + "/acc.wav"])
    }

    @Test func theSamplesAreReadOnAThreadOfTheirOwnAndTheSwitchComesOnceTheyAre() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The accent sample is a named pipe: its reader blocks until this thread writes it,
        // so the switch can only return while it reads if the reading is on another thread.
        #expect(mkfifo(folder + "/pipe.wav", 0o600) == 0)
        try #"{ "format": 1, "name": "Piped", "tempo": 133, "sounds": { "accent": { "sample": "pipe.wav" } } }"#
            .write(toFile: folder + "/piped.json", atomically: true, encoding: .utf8)
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        let inUse = SampleFilesInUse(Options())
        var s = switcher(inUse, wait: false)
        s.started(with: s.library.entries.first { $0.preset.name == "Plain" }!)

        let piped = try #require(s.library.entries.first { $0.preset.name == "Piped" })
        #expect(s.select(named: "Piped", control: control.pointee) == .loading(piped))
        #expect(s.loadingEntry == piped)
        usleep(20_000)
        #expect(s.poll(control: control.pointee) == nil, "still reading")
        #expect(pushed(control).count == 0, "nothing sent: Plain plays on")
        #expect(s.current?.preset.name == "Plain")

        // The WAV's bytes into the pipe: open() returns once the reading thread has it open.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/acc.wav"))
        let pipe = open(folder + "/pipe.wav", O_WRONLY)
        #expect(pipe >= 0)
        _ = bytes.withUnsafeBytes { write(pipe, $0.baseAddress, $0.count) }
        close(pipe)
        var outcome: PresetSwitcher.Outcome?
        for _ in 0..<10_000 where outcome == nil {
            outcome = s.poll(control: control.pointee)
            if outcome == nil { usleep(1000) }
        }
        #expect(outcome == .switched(piped))
        #expect(s.loadingEntry == nil && s.current == piped)
        let switched = pushed(control)
        let set = try #require(switched.sounds)
        #expect(Array(set.samples(.accent)) == [0.25, -0.25, 0.125])
        #expect(switched.count == 4)
        set.deallocate()
    }

    @Test func aSampleGivenOnTheCommandLineStaysThroughASwitch() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
        control.initialize(to: EngineControl())
        defer { control.deinitialize(count: 1); control.deallocate() }
        var options = Options()
        options.samples[.accent] = folder + "/acc.wav"
        let inUse = SampleFilesInUse(options)
        var s = switcher(inUse)
        // `--sample-accent acc.wav` already plays: the sampled preset changes no file.
        guard case .switched(let entry) = s.select(named: "Sampled", control: control.pointee) else { Issue.record("not switched"); return }
        let sampled = pushed(control)
        #expect(sampled.sounds == nil && sampled.count == 4, "a bar change without sounds, then the clock options")
        // The plain preset keeps the command line's accent too.
        inUse.use(entry)
        #expect(s.select(named: "Plain", control: control.pointee) == .switched(s.library.entries[1]))
        let plain = pushed(control)
        #expect(plain.sounds == nil && plain.count == 4)
        #expect(inUse.files(for: s.current!) == [.accent: folder + "/acc.wav"])
    }
}
