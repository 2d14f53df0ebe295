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

/// `anchor + round(pulses × framesPerPulse)`, rounded half up, in exact integers.
func idealFrame(anchor: Int64, pulses: Int64, sampleRate: Int64, tempoHundredths: Int64, pulsesPerBeat: Int64) -> Int64 {
    let numerator = sampleRate * 6000
    let denominator = tempoHundredths * pulsesPerBeat
    return anchor + (2 * pulses * numerator + denominator) / (2 * denominator)
}

func decode(_ text: String, file: String = "test.json") throws(PresetError) -> Preset {
    try Preset.decode(Array(text.utf8), file: file)
}
