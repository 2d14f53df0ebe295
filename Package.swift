// swift-tools-version:6.0
// Tactus: a real-time metronome engine and MIDI beat clock for Linux (JACK, ALSA sequencer).
import PackageDescription

let package = Package(
    name: "Tactus",
    products: [
        // Loaded with LD_PRELOAD by the JACK real-time test.
        .library(name: "RTProbe", type: .dynamic, targets: ["RTProbe"]),
        // The LV2 plugin (scripts/build-lv2 makes the bundle tactus.lv2/): the Swift
        // runtime linked inside, since a host has none to load.
        .library(name: "TactusLV2", type: .dynamic, targets: ["TactusLV2"]),
    ],
    targets: [
        // C libraries from Debian, one system-library module each.
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CLiblo", pkgConfig: "liblo", providers: [.apt(["liblo-dev"])]),
        // Static inline wrappers for what Swift cannot import (variadic functions, macros),
        // one target per library, so the ALSA side never compiles against JACK's headers.
        .target(name: "CJackShims", dependencies: ["CJack"]),
        .target(name: "CALSAShims", dependencies: ["CALSA"]),
        // Raw mode and its restoration from signal handlers (async-signal-safe C).
        .target(name: "CTerminal"),
        // The engine and everything it is told: grid, clock, sound, MIDI, real-time state,
        // controller, presets. No I/O in Realtime/, Grid/, Clock/, Sound/, MIDI/ or Control/
        // (Control/ reads CLOCK_MONOTONIC, and the control thread sleeps on it). System/ is the
        // one part that does I/O: FileSystem reads and writes files, ProcessEnvironment reads
        // the environment, for Presets/ to load preset files and find their folders.
        .target(name: "TactusCore", swiftSettings: [.define("REALTIME_CHECKS", .when(configuration: .release))]),
        // The ALSA sequencer client: clock scheduler, controller input, port discovery.
        .target(name: "TactusALSA", dependencies: ["TactusCore", "CALSA", "CALSAShims"]),
        // The OSC server: a UDP socket and thread of its own, liblo's encoding and decoding,
        // typed commands to the control thread through a ring.
        .target(name: "TactusOSC", dependencies: ["TactusCore", "CLiblo"]),
        // The command line: options, subcommands, wiring of the layers below.
        .target(name: "TactusCLI", dependencies: ["TactusCore", "TactusALSA", "TactusJACK", "TactusOSC", "CSndfile", "CTerminal"]),
        .executableTarget(name: "tactus", dependencies: ["TactusCLI"]),
        // The JACK client: process callback, ports, reconnection, the port listing.
        .target(name: "TactusJACK", dependencies: ["TactusCore", "TactusLink", "CJack", "CJackShims"],
                swiftSettings: [.define("REALTIME_CHECKS", .when(configuration: .release))]),
        // Ableton Link (Debian's header-only ableton-link-dev over libasio-dev, GPL-2.0-or-later):
        // a few C functions written here over <ableton/Link.hpp>, so the Swift targets import
        // plain C and need no C++ interop; and the Swift side, the session and its time source.
        .target(name: "CLink", cxxSettings: [.define("LINK_PLATFORM_LINUX", to: "1")],
                linkerSettings: [.linkedLibrary("pthread"), .linkedLibrary("atomic")]),
        .target(name: "TactusLink", dependencies: ["TactusCore", "CLink"]),
        // JACK test companion (recorder, MIDI sender, harness) and the LD_PRELOAD real-time probe.
        .executableTarget(name: "tactus-jack-probe", dependencies: ["TactusJACK", "TactusCore", "TactusLink", "CJack", "CJackShims"], path: "Tests/JackProbe"),
        .target(name: "RTProbe", path: "Tests/RTProbe"),
        // The cost of one process cycle, for callgrind (scripts/bench).
        .executableTarget(name: "tactus-bench", dependencies: ["TactusCore"], path: "Benchmarks/CycleCost"),
        // The LV2 headers (Debian lv2-dev) and what Swift cannot import from them (URI
        // macros, atom iteration); the plugin on the engine, linked with -static-stdlib
        // and -z nodelete (a Swift runtime in a library must never be unloaded).
        .target(name: "CLV2"),
        .target(name: "TactusLV2", dependencies: ["TactusCore", "CLV2"],
                linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "-z", "-Xlinker", "nodelete"])]),
        // A tiny LV2 host for the tests: loads the bundle's library, runs it offline, unloads it.
        .executableTarget(name: "tactus-lv2-host", dependencies: ["CLV2"], path: "Tests/LV2Host"),
        .testTarget(name: "TactusJACKTests", dependencies: ["TactusJACK", "TactusCore", "TactusCLI", "TactusLink", "TactusALSA"]),
        .testTarget(name: "TactusCoreTests", dependencies: ["TactusCore"]),
        .testTarget(name: "TactusALSATests", dependencies: ["TactusALSA", "TactusCore", "CALSA", "CALSAShims"]),
        .testTarget(name: "TactusCLITests", dependencies: ["TactusCLI", "TactusCore", "CSndfile", "CTerminal"]),
    ]
)
