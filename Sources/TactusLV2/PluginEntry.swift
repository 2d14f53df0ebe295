import CLV2
import TactusCore

/// The library's one entry point (LV2 core: `lv2_descriptor`, index 0 is the
/// Tactus metronome, every other index none).
@_cdecl("lv2_descriptor")
public func lv2Descriptor(_ index: UInt32) -> UnsafePointer<LV2_Descriptor>? {
    index == 0 ? UnsafePointer(PluginEntry.descriptor) : nil
}

/// The descriptor and its functions. The host calls `instantiate`, `cleanup`
/// and the state functions outside the audio thread, `run` on it (LV2 core:
/// threading classes); everything run() needs is allocated in instantiate.
enum PluginEntry {
    /// Made once per process, at the first lv2_descriptor call, never freed:
    /// the library stays loaded (linked `-z nodelete`: a Swift runtime inside a
    /// library cannot be unloaded and loaded again).
    nonisolated(unsafe) static let descriptor: UnsafeMutablePointer<LV2_Descriptor> = {
        let d = UnsafeMutablePointer<LV2_Descriptor>.allocate(capacity: 1)
        d.initialize(to: LV2_Descriptor(URI: tactus_lv2_uri(), instantiate: instantiate, connect_port: connectPort,
                                        activate: activate, run: run, deactivate: nil, cleanup: cleanup,
                                        extension_data: extensionData))
        return d
    }()

    nonisolated(unsafe) static let stateInterface: UnsafeMutablePointer<LV2_State_Interface> = {
        let s = UnsafeMutablePointer<LV2_State_Interface>.allocate(capacity: 1)
        s.initialize(to: LV2_State_Interface(save: PluginState.save, restore: PluginState.restore))
        return s
    }()

    static let instantiate: @convention(c) (UnsafePointer<LV2_Descriptor>?, Double, UnsafePointer<CChar>?,
                                            UnsafePointer<UnsafePointer<LV2_Feature>?>?) -> LV2_Handle? = { _, rate, bundlePath, features in
        // urid:map is a required feature (tactus.ttl): without it no event can be read.
        guard rate >= 1000, rate <= 1_536_000, let map = tactus_lv2_find_map(features) else { return nil }
        var urids = TactusURIDs()
        tactus_lv2_map_urids(map, &urids)
        let library = PluginPresets.library(bundlePath: bundlePath.map { String(cString: $0) })
        let presets = PluginPresets(library)
        PluginWarmUp.run(sampleRate: rate, urids: urids, presets: presets)
        let context = UnsafeMutablePointer<PluginContext>.allocate(capacity: 1)
        context.initialize(to: PluginContext(sampleRate: rate, urids: urids, presets: presets, presetNames: library.entries.map(\.preset.name)))
        return LV2_Handle(context)
    }

    static let connectPort: @convention(c) (LV2_Handle?, UInt32, UnsafeMutableRawPointer?) -> Void = { handle, index, data in
        guard let context = PluginEntry.context(handle), let port = PluginPort(rawValue: index) else { return }
        context.pointee.ports.connect(port, to: data)
    }

    static let activate: @convention(c) (LV2_Handle?) -> Void = { _ in }

    static let run: @convention(c) (LV2_Handle?, UInt32) -> Void = { handle, frames in
        guard let context = PluginEntry.context(handle) else { return }
        PluginCycle.run(context, frames: Int(frames))
    }

    static let cleanup: @convention(c) (LV2_Handle?) -> Void = { handle in
        guard let context = PluginEntry.context(handle) else { return }
        context.move().free()
        context.deallocate()
    }

    static let extensionData: @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer? = { uri in
        tactus_lv2_is_state_interface(uri) ? UnsafeRawPointer(PluginEntry.stateInterface) : nil
    }

    static func context(_ handle: LV2_Handle?) -> UnsafeMutablePointer<PluginContext>? {
        handle?.assumingMemoryBound(to: PluginContext.self)
    }
}
