import CLV2
import TactusCore

/// The LV2 state extension: the tempo reached (free mode, pressure control
/// included) goes with the host's session. The settings are the control input
/// ports, which the host saves and restores itself (LV2 core: port values).
enum PluginState {
    static let save: @convention(c) (LV2_Handle?, LV2_State_Store_Function?, LV2_State_Handle?, UInt32,
                                     UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2_State_Status = { handle, store, state, _, _ in
        guard let context = PluginEntry.context(handle), let store else { return LV2_STATE_ERR_UNKNOWN }
        var tempo = Float(context.pointee.tempoReached.load(ordering: .relaxed)) / 100
        let urids = context.pointee.urids
        return store(state, urids.state_tempoReached, &tempo, MemoryLayout<Float>.size, urids.atom_Float,
                     LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue)
    }

    static let restore: @convention(c) (LV2_Handle?, LV2_State_Retrieve_Function?, LV2_State_Handle?, UInt32,
                                        UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2_State_Status = { handle, retrieve, state, _, _ in
        guard let context = PluginEntry.context(handle), let retrieve else { return LV2_STATE_ERR_UNKNOWN }
        let urids = context.pointee.urids
        var size = 0
        var type: UInt32 = 0
        var flags: UInt32 = 0
        guard let value = retrieve(state, urids.state_tempoReached, &size, &type, &flags) else { return LV2_STATE_SUCCESS }
        guard type == urids.atom_Float, size == MemoryLayout<Float>.size else { return LV2_STATE_ERR_BAD_TYPE }
        let bpm = value.loadUnaligned(as: Float.self)
        guard bpm.isFinite, bpm >= 1, bpm <= 999 else { return LV2_STATE_ERR_BAD_TYPE }
        // Taken up by the next run(), in order with the ports' changes.
        context.pointee.restoredTempo.store(BPM(Double(bpm)).hundredths, ordering: .relaxed)
        return LV2_STATE_SUCCESS
    }
}
