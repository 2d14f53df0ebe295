import CLV2

/// The plugin's ports, by index, as lv2/tactus.lv2/tactus.ttl lists them
/// (lv2:index). The symbols are the ones hosts and scripts rely on.
enum PluginPort: UInt32, CaseIterable {
    case click = 0
    case feedback
    case control
    case midiOut
    case sync
    case tempo
    case beatsPerBar
    case beatUnit
    case subdivision
    case accent
    case gain
    case pressureMode
    case upKey
    case downKey
    case presetKey
    case channel
    case tempoOut
    case bar
    case beat
    case force
}

/// The buffers the host connected (connect_port), as raw pointers: the host
/// owns them and may move them between cycles.
struct PluginBuffers: BitwiseCopyable {
    var click: UnsafeMutablePointer<Float>?
    var feedback: UnsafeMutablePointer<Float>?
    var control: UnsafePointer<LV2_Atom_Sequence>?
    var midiOut: UnsafeMutablePointer<LV2_Atom_Sequence>?
    /// The control ports, in port order from `sync` to `force`.
    var controls: (UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?,
                   UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?,
                   UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?,
                   UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?)
        = (nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil)

    mutating func connect(_ port: PluginPort, to data: UnsafeMutableRawPointer?) {
        let float = data?.assumingMemoryBound(to: Float.self)
        switch port {
        case .click: click = float
        case .feedback: feedback = float
        case .control: control = data.map { UnsafePointer($0.assumingMemoryBound(to: LV2_Atom_Sequence.self)) }
        case .midiOut: midiOut = data?.assumingMemoryBound(to: LV2_Atom_Sequence.self)
        case .sync: controls.0 = float
        case .tempo: controls.1 = float
        case .beatsPerBar: controls.2 = float
        case .beatUnit: controls.3 = float
        case .subdivision: controls.4 = float
        case .accent: controls.5 = float
        case .gain: controls.6 = float
        case .pressureMode: controls.7 = float
        case .upKey: controls.8 = float
        case .downKey: controls.9 = float
        case .presetKey: controls.10 = float
        case .channel: controls.11 = float
        case .tempoOut: controls.12 = float
        case .bar: controls.13 = float
        case .beat: controls.14 = float
        case .force: controls.15 = float
        }
    }

    /// A control input's value, or `fallback` while it is not connected.
    func value(_ port: PluginPort, _ fallback: Float) -> Float {
        control(port)?.pointee ?? fallback
    }

    func write(_ port: PluginPort, _ value: Float) {
        control(port)?.pointee = value
    }

    private func control(_ port: PluginPort) -> UnsafeMutablePointer<Float>? {
        switch port {
        case .sync: controls.0
        case .tempo: controls.1
        case .beatsPerBar: controls.2
        case .beatUnit: controls.3
        case .subdivision: controls.4
        case .accent: controls.5
        case .gain: controls.6
        case .pressureMode: controls.7
        case .upKey: controls.8
        case .downKey: controls.9
        case .presetKey: controls.10
        case .channel: controls.11
        case .tempoOut: controls.12
        case .bar: controls.13
        case .beat: controls.14
        case .force: controls.15
        case .click, .feedback, .control, .midiOut: nil
        }
    }
}
