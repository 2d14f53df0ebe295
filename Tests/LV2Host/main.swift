#if canImport(Glibc)
import Glibc
#endif
import CLV2

/// tactus-lv2-host: a tiny LV2 host for the tests. It loads the plugin's
/// library, instantiates it with urid:map, feeds it MIDI and time:Position
/// events at chosen frames, runs it offline block by block and writes what
/// comes out, as `tactus-jack-probe record` writes a JACK recording.
let usage = """
usage: tactus-lv2-host run LIBRARY [--rate R] [--block N] [--frames N] [--set SYMBOL=VALUE]...
                           [--midi FRAME:HEX..]... [--position FRAME:BAR,BEAT,BEATS_PER_BAR,UNIT,BPM,SPEED]...
                           [--save-state] [--restore-tempo BPM] [--restore-settings TEXT] [--bundle DIR]
         writes `A port frame value` (audio onsets), `M 1 frame hex..` (midi_out),
         `T frame bpm` (tempoOut after the block that changed it), `S bpm` and
         `P line` for each line of the saved settings (saved state)
       tactus-lv2-host cycle LIBRARY [--times N]
         loads, instantiates, runs 100 blocks, cleans up and unloads N times; prints RSS in kB
"""

func fail(_ message: String) -> Never {
    let line = "tactus-lv2-host: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

// MARK: - urid:map

nonisolated(unsafe) var mapped: [String] = []
nonisolated(unsafe) let mapURI: @convention(c) (LV2_URID_Map_Handle?, UnsafePointer<CChar>?) -> LV2_URID = { _, uri in
    let s = String(cString: uri!)
    if let i = mapped.firstIndex(of: s) { return LV2_URID(i + 1) }
    mapped.append(s)
    return LV2_URID(mapped.count)
}

final class Host {
    var map = LV2_URID_Map(handle: nil, map: mapURI)
    let mapFeature: UnsafeMutablePointer<LV2_Feature>
    let features: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
    init() {
        mapFeature = .allocate(capacity: 1)
        features = .allocate(capacity: 2)
        let uri = strdup("http://lv2plug.in/ns/ext/urid#map")
        withUnsafeMutablePointer(to: &map) { m in
            mapFeature.initialize(to: LV2_Feature(URI: uri, data: UnsafeMutableRawPointer(m)))
        }
        features[0] = UnsafePointer(mapFeature)
        features[1] = nil
    }
}

func load(_ path: String) -> (UnsafeMutableRawPointer, UnsafePointer<LV2_Descriptor>) {
    guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else { fail("cannot load \(path): \(String(cString: dlerror()))") }
    guard let symbol = dlsym(library, "lv2_descriptor") else { fail("\(path) has no lv2_descriptor") }
    typealias Entry = @convention(c) (UInt32) -> UnsafePointer<LV2_Descriptor>?
    guard let descriptor = unsafeBitCast(symbol, to: Entry.self)(0) else { fail("lv2_descriptor(0) is NULL") }
    return (library, descriptor)
}

/// Port symbols → indices, as tactus.ttl lists them.
let symbols = ["click", "feedback", "control", "midi_out", "sync", "tempo", "beatsPerBar", "beatUnit", "subdivision", "accent",
               "gain", "pressureMode", "upKey", "downKey", "presetKey", "channel", "tempoOut", "bar", "beat", "force"]

func residentKilobytes() -> Int {
    guard let f = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, f) != nil {
        let s = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if s.hasPrefix("VmRSS:") { return Int(s.split(separator: " ")[1]) ?? -1 }
    }
    return -1
}

// MARK: - Options

nonisolated(unsafe) var args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 2 else { fail(usage) }
let mode = args.removeFirst()
let libraryPath = args.removeFirst()
func take(_ name: String) -> [String] {
    var found: [String] = []
    while let i = args.firstIndex(of: name), i + 1 < args.count {
        found.append(args[i + 1])
        args.removeSubrange(i...(i + 1))
    }
    return found
}
func flag(_ name: String) -> Bool {
    guard let i = args.firstIndex(of: name) else { return false }
    args.remove(at: i)
    return true
}
let rate = Double(take("--rate").last ?? "48000")!
let block = Int(take("--block").last ?? "256")!
let bundlePath = take("--bundle").last ?? "/tmp"
nonisolated(unsafe) let host = Host()

struct Instance {
    let descriptor: UnsafePointer<LV2_Descriptor>
    let handle: LV2_Handle
    var controls = [Float](repeating: 0, count: symbols.count)
    let click: UnsafeMutablePointer<Float>
    let feedback: UnsafeMutablePointer<Float>
    let input: UnsafeMutableRawPointer
    let output: UnsafeMutableRawPointer
    static let capacity = 65536
}

func instantiate(_ descriptor: UnsafePointer<LV2_Descriptor>, block: Int) -> UnsafeMutablePointer<Instance> {
    guard let handle = descriptor.pointee.instantiate(descriptor, rate, bundlePath, host.features) else { fail("instantiate failed") }
    let instance = UnsafeMutablePointer<Instance>.allocate(capacity: 1)
    instance.initialize(to: Instance(descriptor: descriptor, handle: handle, click: .allocate(capacity: block), feedback: .allocate(capacity: block),
                                     input: .allocate(byteCount: Instance.capacity, alignment: 8), output: .allocate(byteCount: Instance.capacity, alignment: 8)))
    // The ports' defaults (tactus.ttl).
    let defaults: [String: Float] = ["sync": 1, "tempo": 120, "beatsPerBar": 4, "beatUnit": 4, "subdivision": 0, "accent": 1, "gain": 0,
                                     "pressureMode": 0, "upKey": 72, "downKey": 71, "presetKey": 70, "channel": 0]
    for (k, v) in defaults { instance.pointee.controls[symbols.firstIndex(of: k)!] = v }
    let connect = descriptor.pointee.connect_port!
    connect(handle, 0, instance.pointee.click)
    connect(handle, 1, instance.pointee.feedback)
    connect(handle, 2, instance.pointee.input)
    connect(handle, 3, instance.pointee.output)
    instance.pointee.controls.withUnsafeMutableBufferPointer { c in
        for i in 4..<symbols.count { connect(handle, UInt32(i), c.baseAddress! + i) }
    }
    descriptor.pointee.activate?(handle)
    return instance
}

func release(_ instance: UnsafeMutablePointer<Instance>) {
    instance.pointee.descriptor.pointee.deactivate?(instance.pointee.handle)
    instance.pointee.descriptor.pointee.cleanup(instance.pointee.handle)
    instance.pointee.click.deallocate()
    instance.pointee.feedback.deallocate()
    instance.pointee.input.deallocate()
    instance.pointee.output.deallocate()
    instance.deinitialize(count: 1)
    instance.deallocate()
}

nonisolated(unsafe) var urids = TactusURIDs()

/// One block: the input sequence with the events falling in it, run, output read.
func runBlock(_ instance: UnsafeMutablePointer<Instance>, frames: Int, events: (UnsafeMutablePointer<LV2_Atom_Sequence>) -> Void) {
    let input = instance.pointee.input.assumingMemoryBound(to: LV2_Atom_Sequence.self)
    tactus_lv2_sequence_clear(input, UInt32(Instance.capacity), urids.atom_Sequence)
    events(input)
    let output = instance.pointee.output.assumingMemoryBound(to: LV2_Atom_Sequence.self)
    output.pointee.atom.type = 0
    output.pointee.atom.size = UInt32(Instance.capacity - MemoryLayout<LV2_Atom>.size)
    instance.pointee.descriptor.pointee.run(instance.pointee.handle, UInt32(frames))
}

switch mode {
case "cycle":
    let times = Int(take("--times").last ?? "100")!
    var before = 0
    for n in 0..<times {
        let (library, descriptor) = load(libraryPath)
        tactus_lv2_map_urids(&host.map, &urids)
        let instance = instantiate(descriptor, block: block)
        instance.pointee.controls[symbols.firstIndex(of: "sync")!] = 0
        for _ in 0..<100 { runBlock(instance, frames: block) { _ in } }
        release(instance)
        dlclose(library)
        // The first rounds settle the allocator and the runtime's caches.
        if n == 1 { before = residentKilobytes() }
    }
    print("cycles \(times) rss-after-2 \(before) rss-end \(residentKilobytes())")

case "run":
    let totalFrames = Int(take("--frames").last ?? "480000")!
    let (_, descriptor) = load(libraryPath)
    tactus_lv2_map_urids(&host.map, &urids)
    let instance = instantiate(descriptor, block: block)
    for s in take("--set") {
        let kv = s.split(separator: "=")
        guard kv.count == 2, let i = symbols.firstIndex(of: String(kv[0])), let v = Float(kv[1]) else { fail("bad --set \(s)") }
        instance.pointee.controls[i] = v
    }
    struct Input { var frame: Int; var midi: [UInt8]?; var time: TactusHostTime? }
    var inputs: [Input] = []
    for m in take("--midi") {
        let p = m.split(separator: ":")
        inputs.append(Input(frame: Int(p[0])!, midi: p[1].split(separator: ",").map { UInt8($0, radix: 16)! }, time: nil))
    }
    for m in take("--position") {
        let p = m.split(separator: ":")
        let v = p[1].split(separator: ",").map { Double($0)! }
        var t = TactusHostTime()
        t.has_bar = true; t.bar = Int64(v[0])
        t.has_bar_beat = true; t.bar_beat = v[1]
        t.has_beats_per_bar = true; t.beats_per_bar = v[2]
        t.has_beat_unit = true; t.beat_unit = Int32(v[3])
        t.has_bpm = true; t.bpm = v[4]
        t.has_speed = true; t.speed = v[5]
        inputs.append(Input(frame: Int(p[0])!, midi: nil, time: t))
    }
    inputs.sort { $0.frame < $1.frame }
    let saveState = flag("--save-state")
    let restoreTempo = take("--restore-tempo").last.flatMap(Float.init)
    let restoreSettings = take("--restore-settings").last
    if restoreTempo != nil || restoreSettings != nil {
        let state = instance.pointee.descriptor.pointee.extension_data("http://lv2plug.in/ns/ext/state#interface")!
            .assumingMemoryBound(to: LV2_State_Interface.self)
        // The state handle: the tempo's float, then the settings' NUL-terminated text.
        struct Saved { var tempo: Float; var hasTempo: Bool; var settings: [UInt8]? }
        var saved = Saved(tempo: restoreTempo ?? 0, hasTempo: restoreTempo != nil, settings: restoreSettings.map { Array($0.utf8) + [0] })
        let retrieve: LV2_State_Retrieve_Function = { handle, key, size, type, flags in
            let saved = handle!.assumingMemoryBound(to: Saved.self)
            flags?.pointee = 0
            if key == urids.state_tempoReached, saved.pointee.hasTempo {
                size?.pointee = 4; type?.pointee = urids.atom_Float
                return UnsafeRawPointer(saved)  // `tempo`, the struct's first field
            }
            if key == urids.state_settings, let text = saved.pointee.settings {
                size?.pointee = text.count; type?.pointee = urids.atom_String
                return text.withUnsafeBytes { $0.baseAddress }
            }
            return nil
        }
        withUnsafeMutablePointer(to: &saved) { _ = state.pointee.restore(instance.pointee.handle, retrieve, UnsafeMutableRawPointer($0), 0, nil) }
    }
    print("# rate \(Int(rate)) period \(block) first-frame 0 end-frame \(totalFrames)")
    var previous: (Float, Float) = (0, 0)
    var lastTempo: Float = -1
    var next = 0
    var frame = 0
    while frame < totalFrames {
        let n = min(block, totalFrames - frame)
        runBlock(instance, frames: n) { seq in
            while next < inputs.count, inputs[next].frame < frame + n {
                let input = inputs[next]
                let at = Int64(input.frame - frame)
                if var midi = input.midi {
                    _ = tactus_lv2_sequence_append(seq, UInt32(Instance.capacity), at, urids.midi_MidiEvent, &midi, UInt32(midi.count))
                } else if var t = input.time {
                    _ = tactus_lv2_sequence_append_position(seq, UInt32(Instance.capacity), at, &urids, &t)
                }
                next += 1
            }
        }
        for i in 0..<n {
            let c = instance.pointee.click[i], f = instance.pointee.feedback[i]
            if previous.0 == 0 && c != 0 { print("A 1 \(frame + i) \(c)") }
            if previous.1 == 0 && f != 0 { print("A 2 \(frame + i) \(f)") }
            previous = (c, f)
        }
        let output = instance.pointee.output.assumingMemoryBound(to: LV2_Atom_Sequence.self)
        var e = tactus_lv2_sequence_begin(output)
        while let event = e, !tactus_lv2_sequence_is_end(output, event) {
            let body = tactus_lv2_event_body(event)!
            let bytes = (0..<Int(event.pointee.body.size)).map { String(body[$0], radix: 16, uppercase: true) }
            print("M 1 \(frame + Int(event.pointee.time.frames)) \(bytes.joined(separator: " "))")
            e = tactus_lv2_sequence_next(event)
        }
        let tempo = instance.pointee.controls[symbols.firstIndex(of: "tempoOut")!]
        if tempo != lastTempo { print("T \(frame + n) \(tempo)"); lastTempo = tempo }
        frame += n
    }
    if saveState {
        let state = instance.pointee.descriptor.pointee.extension_data("http://lv2plug.in/ns/ext/state#interface")!
            .assumingMemoryBound(to: LV2_State_Interface.self)
        let store: LV2_State_Store_Function = { _, key, value, size, type, _ in
            if key == urids.state_tempoReached, type == urids.atom_Float, size == 4 { print("S \(value!.loadUnaligned(as: Float.self))") }
            if key == urids.state_settings, type == urids.atom_String, size > 0 {
                let bytes = UnsafeRawBufferPointer(start: value, count: size)
                guard bytes.last == 0 else { print("P (no terminating NUL)"); return LV2_STATE_SUCCESS }
                for line in String(decoding: bytes.dropLast(), as: UTF8.self).split(separator: "\n") { print("P \(line)") }
            }
            return LV2_STATE_SUCCESS
        }
        _ = state.pointee.save(instance.pointee.handle, store, nil, 0, nil)
    }
    release(instance)
default:
    fail(usage)
}
