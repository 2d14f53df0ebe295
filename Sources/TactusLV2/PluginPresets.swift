import TactusCore

/// What run() hands the engine for one preset: its bar, tempo, gains and
/// pressure-control settings (docs/DESIGN.md §6).
struct PluginPreset {
    var bar: BarSettings
    var tempo: BPM
    var gains: SoundGains
    var pressure: PressureConfiguration
}

/// The preset library in the plugin, read in instantiate (reading files is
/// never run()'s work) into a table run() only indexes: the presets in list
/// order, and Program Change n → the preset whose `program` is n, else the
/// n-th (`PresetLibrary.index(forProgram:)`). The shipped presets come from the
/// bundle's `presets/` folder (scripts/build-lv2 copies them there), else
/// where the command line finds them (`TACTUS_PRESETS_DIR`, `$XDG_DATA_DIRS`);
/// the user's own from `~/.config/tactus/presets/`, as for the command line.
/// A preset's WAV samples are not read: the plugin plays its synthesized
/// sounds (decoding files would need LV2's worker, docs/DESIGN.md §2.2).
struct PluginPresets: BitwiseCopyable {
    let entries: UnsafeMutablePointer<PluginPreset>
    let count: Int
    /// 128 list positions, -1 where a program selects none.
    let programs: UnsafeMutablePointer<Int32>

    init(_ library: PresetLibrary) {
        count = library.entries.count
        entries = .allocate(capacity: max(count, 1))
        for (i, entry) in library.entries.enumerated() {
            let p = entry.preset
            (entries + i).initialize(to: PluginPreset(bar: p.bar, tempo: p.tempo, gains: p.sounds.gains, pressure: p.pressure))
        }
        programs = .allocate(capacity: 128)
        for n in 0..<128 {
            programs[n] = UInt7(n).flatMap { library.index(forProgram: $0) }.map { Int32($0) } ?? -1
        }
    }

    /// The library for a bundle at `bundlePath` and this process's environment.
    static func library(bundlePath: String?) -> PresetLibrary {
        let environment = ProcessEnvironment.current
        var directories = PresetDirectories.standard(environment: environment, executablePath: nil)
        if environment[PresetDirectories.overrideVariable, default: ""].isEmpty, let bundlePath {
            let folder = (bundlePath.hasSuffix("/") ? String(bundlePath.dropLast()) : bundlePath) + "/presets"
            if PresetDirectories.isDirectory(folder) { directories.shipped = folder }
        }
        return PresetLibrary.load(directories)
    }

    func deallocate() {
        entries.deinitialize(count: count)
        entries.deallocate()
        programs.deallocate()
    }

    /// The position after `index` (-1: none yet), wrapping; -1 when there are no presets.
    func index(after index: Int) -> Int {
        count == 0 ? -1 : (index + 1) % count
    }

    func index(forProgram program: UInt7) -> Int { Int(programs[Int(program.value)]) }
}
