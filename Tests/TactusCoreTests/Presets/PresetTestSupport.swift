import Foundation
@testable import TactusCore

/// The clone this test file lives in, for the shipped `Presets/`.
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4) // Tests/TactusCoreTests/Presets/<file>
    return parts.joined(separator: "/")
}()

let shippedPresetsFolder = repositoryRoot + "/Presets"

/// A fresh folder under /tmp, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() {
        var template = Array("/tmp/tactus-presets-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let file = path + "/" + name
        let folder = (file as NSString).deletingLastPathComponent
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// An engine with its control block, driven block by block as the JACK callback
/// would, recording the MIDI clock frames and the click onsets with their level.
final class EngineHarness {
    let sampleRate = 48_000
    let blockSize = 256
    let control: UnsafeMutablePointer<EngineControl>
    var engine: Engine
    var events = MIDIEventBuffer(capacity: 4096)
    let click: UnsafeMutablePointer<Float>
    var frame: Int64 = 0
    private(set) var clocks: [Int64] = []
    private(set) var otherMIDI: [(frame: Int64, status: UInt8)] = []
    /// Frame and first sample of every click (its peak: level × gain).
    private(set) var onsets: [(frame: Int64, level: Float)] = []
    private var silentRun = Int.max

    init(_ configuration: EngineConfiguration) {
        control = .allocate(capacity: 1)
        control.initialize(to: EngineControl(tempo: configuration.tempo))
        engine = Engine(configuration: configuration, sounds: .synthesized(sampleRate: configuration.sampleRate))
        click = .allocate(capacity: blockSize)
    }

    deinit {
        engine.soundSet.deallocate()
        control.deinitialize(count: 1)
        control.deallocate()
        click.deallocate()
    }

    /// Renders whole blocks until `frame` ≥ `end`.
    func render(until end: Int64) {
        while frame < end {
            engine.render(frames: blockSize, at: frame, control: control.pointee, click: click, feedback: nil, events: &events)
            for i in 0..<events.count {
                let e = events[i]
                if e.bytes.byte0 == 0xF8 { clocks.append(e.frame) } else { otherMIDI.append((e.frame, e.bytes.byte0)) }
            }
            for i in 0..<blockSize {
                // A click starts at its peak after silence (clicks are far shorter than a beat here).
                if click[i] != 0 && silentRun >= 64 { onsets.append((frame + Int64(i), click[i])) }
                silentRun = click[i] == 0 ? silentRun + 1 : 0
            }
            frame += Int64(blockSize)
        }
    }
}

/// `anchor + round(pulses × framesPerPulse)`, rounded half up, in exact integers.
func idealFrame(anchor: Int64, pulses: Int64, sampleRate: Int64, tempoHundredths: Int64, pulsesPerBeat: Int64) -> Int64 {
    let numerator = sampleRate * 6000
    let denominator = tempoHundredths * pulsesPerBeat
    return anchor + (2 * pulses * numerator + denominator) / (2 * denominator)
}

func decode(_ text: String, file: String = "test.json") throws(PresetError) -> Preset {
    try Preset.decode(Array(text.utf8), file: file)
}
