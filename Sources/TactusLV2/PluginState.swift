import CLV2
import TactusCore

/// The LV2 state extension: what a host's session must bring back that the
/// control ports (which the host saves and restores itself, LV2 core: port
/// values) do not hold. The tempo reached (free mode, pressure control
/// included), and the settings: the preset playing, by name (its bar, tempo,
/// gains and pressure settings come with it), as `preset=NAME` lines in an
/// atom:String, so a session file reads plainly and a preset renamed or gone
/// since is passed over (the ports' settings play).
enum PluginState {
    static let save: @convention(c) (LV2_Handle?, LV2_State_Store_Function?, LV2_State_Handle?, UInt32,
                                     UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2_State_Status = { handle, store, state, _, _ in
        guard let context = PluginEntry.context(handle), let store else { return LV2_STATE_ERR_UNKNOWN }
        var tempo = Float(context.pointee.tempoReached.load(ordering: .relaxed)) / 100
        let urids = context.pointee.urids
        let flags = LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue
        let status = store(state, urids.state_tempoReached, &tempo, MemoryLayout<Float>.size, urids.atom_Float, flags)
        guard status == LV2_STATE_SUCCESS else { return status }
        let index = Int(context.pointee.presetIndex.load(ordering: .relaxed))
        guard index >= 0, index < context.pointee.presetNames.count else { return LV2_STATE_SUCCESS }
        // atom:String: UTF-8 with its terminating NUL counted (LV2 atom).
        var text = Array("preset=\(context.pointee.presetNames[index])\n".utf8) + [0]
        return store(state, urids.state_settings, &text, text.count, urids.atom_String, flags)
    }

    static let restore: @convention(c) (LV2_Handle?, LV2_State_Retrieve_Function?, LV2_State_Handle?, UInt32,
                                        UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2_State_Status = { handle, retrieve, state, _, _ in
        guard let context = PluginEntry.context(handle), let retrieve else { return LV2_STATE_ERR_UNKNOWN }
        let urids = context.pointee.urids
        var size = 0
        var type: UInt32 = 0
        var flags: UInt32 = 0
        // Taken up by the next run(), in order with the ports' changes: the preset, then the tempo over it.
        if let value = retrieve(state, urids.state_settings, &size, &type, &flags) {
            guard type == urids.atom_String else { return LV2_STATE_ERR_BAD_TYPE }
            let text = String(decoding: UnsafeRawBufferPointer(start: value, count: size).prefix { $0 != 0 }, as: UTF8.self)
            if let index = presetIndex(in: text, names: context.pointee.presetNames) {
                context.pointee.restoredPreset.store(Int32(index), ordering: .relaxed)
            }
        }
        guard let value = retrieve(state, urids.state_tempoReached, &size, &type, &flags) else { return LV2_STATE_SUCCESS }
        guard type == urids.atom_Float, size == MemoryLayout<Float>.size else { return LV2_STATE_ERR_BAD_TYPE }
        let bpm = value.loadUnaligned(as: Float.self)
        guard bpm.isFinite, bpm >= 1, bpm <= 999 else { return LV2_STATE_ERR_BAD_TYPE }
        context.pointee.restoredTempo.store(BPM(Double(bpm)).hundredths, ordering: .relaxed)
        return LV2_STATE_SUCCESS
    }

    /// The list position of the `preset=` line's name: exact, else the only case-insensitive match.
    static func presetIndex(in settings: String, names: [String]) -> Int? {
        for line in settings.split(separator: "\n") where line.hasPrefix("preset=") {
            let name = String(line.dropFirst("preset=".count))
            if let exact = names.firstIndex(of: name) { return exact }
            let matches = names.indices.filter { names[$0].lowercased() == name.lowercased() }
            return matches.count == 1 ? matches[0] : nil
        }
        return nil
    }
}
