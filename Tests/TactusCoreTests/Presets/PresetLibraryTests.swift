import Foundation
import Testing
@testable import TactusCore

@Suite("Preset library")
struct PresetLibraryTests {
    func entry(_ name: String, _ tempo: Double = 100, program: Int? = nil, origin: PresetEntry.Origin = .shipped) -> PresetEntry {
        var preset = Preset(name: name, tempo: BPM(tempo))
        preset.program = program.flatMap(UInt7.init)
        return PresetEntry(preset: preset, file: "/\(origin.rawValue)/\(name).json", origin: origin)
    }

    func names(_ library: PresetLibrary) -> [String] { library.entries.map(\.preset.name) }

    @Test func listOrderIsProgramNumbersFirstThenNamesIgnoringCase() {
        let library = PresetLibrary(shipped: [entry("waltz"), entry("Ballad", program: 7), entry("Allegro"), entry("Intro", program: 0), entry("blues")], user: [])
        #expect(names(library) == ["Intro", "Ballad", "Allegro", "blues", "waltz"])
    }

    @Test func theUsersPresetHidesTheShippedOneOfTheSameName() {
        let library = PresetLibrary(shipped: [entry("Allegro", 138), entry("Largo", 50)], user: [entry("allegro", 144, origin: .user)])
        #expect(names(library) == ["allegro", "Largo"])
        #expect(library.entries[0].origin == .user)
        #expect(library.entries[0].preset.tempo == BPM(144))
        #expect(library.problems.isEmpty)
    }

    @Test func twoFilesWithOneNameInAFolderKeepTheFirstAndReportTheSecond() {
        let library = PresetLibrary(shipped: [entry("Song"), PresetEntry(preset: Preset(name: "song", tempo: BPM(90)), file: "/shipped/z.json", origin: .shipped)], user: [])
        #expect(names(library) == ["Song"])
        #expect(library.problems.flatMap(\.messages) == [
            "/shipped/z.json: name: \"song\" is already the name of /shipped/Song.json, which is used; allowed: a name no other preset in the folder has",
        ])
    }

    @Test func programChangeSelectsTheExplicitProgramElseThePlaceInTheList() throws {
        let library = PresetLibrary(shipped: [entry("A", program: 2), entry("B"), entry("C"), entry("D")], user: [])
        #expect(names(library) == ["A", "B", "C", "D"])
        #expect(library.index(forProgram: UInt7(2)!) == 0)
        #expect(library.index(forProgram: UInt7(0)!) == 0)
        #expect(library.index(forProgram: UInt7(1)!) == 1)
        #expect(library.index(forProgram: UInt7(3)!) == 3)
        #expect(library.index(forProgram: UInt7(4)!) == nil)
        // What the listing shows: the number that reaches each preset, none for C (its place, 2, is A's program).
        #expect((0..<4).map { library.programNumber(at: $0)?.value } == [2, 1, nil, 3])
    }

    @Test func aProgramNumberGivenTwiceGoesToTheFirstAndIsReported() {
        let library = PresetLibrary(shipped: [entry("A", program: 5), entry("B", program: 5)], user: [])
        #expect(library.index(forProgram: UInt7(5)!) == 0)
        #expect(library.problems.map(\.file) == ["/shipped/B.json"])
        #expect(library.problems.first?.issues.map(\.path) == ["program"])
    }

    @Test func nextWrapsFromTheLastPresetToTheFirst() {
        let library = PresetLibrary(shipped: [entry("A"), entry("B"), entry("C")], user: [])
        #expect(library.index(after: nil) == 0)
        #expect(library.index(after: 1) == 2)
        #expect(library.index(after: 2) == 0)
        #expect(PresetLibrary(shipped: [], user: []).index(after: nil) == nil)
    }

    @Test func namesMatchExactlyFirstThenIgnoringCaseWhenUnambiguous() {
        let library = PresetLibrary(shipped: [entry("Allegro"), entry("Largo")], user: [])
        #expect(library.index(named: "Largo") == 1)
        #expect(library.index(named: "largo") == 1)
        #expect(library.index(named: "Lento") == nil)
    }

    // MARK: - Set lists

    @Test func aSetListSkipsCommentsAndBlankLinesAndKeepsLineNumbers() {
        let setlist = Setlist(text: "# Friday gig\r\n\r\n  Waltz  \nAllegro\n\t# encore\nSong #3\n", file: "gig.txt")
        #expect(setlist.lines == [.init(number: 3, name: "Waltz"), .init(number: 4, name: "Allegro"), .init(number: 6, name: "Song #3")])
    }

    @Test func aSetListFixesTheOrderAndMayRepeatAPreset() throws {
        let library = PresetLibrary(shipped: [entry("Allegro"), entry("Largo"), entry("Waltz")], user: [])
        let ordered = try library.ordered(by: Setlist(text: "Waltz\nallegro\nWaltz\n", file: "gig.txt"))
        #expect(names(ordered) == ["Waltz", "Allegro", "Waltz"])
        #expect(ordered.index(forProgram: UInt7(1)!) == 1)
        #expect(ordered.index(after: 2) == 0)
    }

    @Test func anUnknownNameInASetListIsAnErrorNamingItsLine() {
        let library = PresetLibrary(shipped: [entry("Allegro")], user: [])
        let error = #expect(throws: PresetError.self) { try library.ordered(by: Setlist(text: "Allegro\n# x\nAlegro\nLargo", file: "gig.txt")) }
        #expect(error?.messages == [
            "gig.txt: line 3: no preset is named \"Alegro\"; allowed: one preset name a line, as tactus presets lists them; # starts a comment",
            "gig.txt: line 4: no preset is named \"Largo\"; allowed: one preset name a line, as tactus presets lists them; # starts a comment",
        ])
    }

    @Test func anEmptySetListIsAnError() {
        let error = #expect(throws: PresetError.self) { try PresetLibrary(shipped: [entry("A")], user: []).ordered(by: Setlist(text: "# nothing\n", file: "gig.txt")) }
        #expect(error?.issues.map(\.path) == [""])
    }

    // MARK: - Folders

    @Test func theLibraryReadsBothFoldersAndReportsBadFilesWithoutLosingTheGoodOnes() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("shipped/allegro.json", #"{ "format": 1, "name": "Allegro", "tempo": 138 }"#)
        folder.write("shipped/largo.json", #"{ "format": 1, "name": "Largo", "tempo": 50, "program": 0 }"#)
        folder.write("shipped/README.md", "not a preset")
        folder.write("user/mine.json", #"{ "format": 1, "name": "allegro", "tempo": 150 }"#)
        folder.write("user/broken.json", #"{ "format": 1, "name": "Broken", "tempo": 1500 }"#)
        folder.write("user/.hidden.json", "junk")
        let library = PresetLibrary.load(PresetDirectories(shipped: folder.path + "/shipped", user: folder.path + "/user"))
        #expect(library.entries.map { "\($0.preset.name) \($0.preset.tempo) \($0.origin)" } == ["Largo 50 shipped", "allegro 150 user"])
        #expect(library.problems.flatMap(\.messages) == [
            "\(folder.path)/user/broken.json: tempo: 1500 is out of range; allowed: a number from 1 to 999 BPM (beats of the meter's unit a minute), at most two decimals",
        ])
    }

    @Test func missingFoldersGiveAnEmptyLibrary() {
        let library = PresetLibrary.load(PresetDirectories(shipped: "/nonexistent/a", user: nil))
        #expect(library.entries.isEmpty && library.problems.isEmpty)
    }

    @Test func theUserFolderFollowsXDGConfigHomeElseHome() {
        let xdg = PresetDirectories.standard(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"], executablePath: nil)
        #expect(xdg.user == "/cfg/tactus/presets")
        // The XDG spec: an unset, empty or relative XDG_CONFIG_HOME means ~/.config.
        for value in [nil, "", "relative"] as [String?] {
            var environment = ["HOME": "/home/u"]
            environment["XDG_CONFIG_HOME"] = value
            #expect(PresetDirectories.standard(environment: environment, executablePath: nil).user == "/home/u/.config/tactus/presets")
        }
    }

    @Test func theShippedFolderIsFoundFromTheExecutableOrTheOverride() {
        let folders: Set<String> = ["/src/tactus/Presets", "/usr/share/tactus/presets"]
        let exists: (String) -> Bool = { folders.contains($0) }
        #expect(PresetDirectories.standard(environment: [:], executablePath: "/src/tactus/.build/x86_64-unknown-linux-gnu/debug/tactus", isDirectory: exists).shipped == "/src/tactus/Presets")
        #expect(PresetDirectories.standard(environment: [:], executablePath: "/usr/bin/tactus", isDirectory: exists).shipped == "/usr/share/tactus/presets")
        #expect(PresetDirectories.standard(environment: ["XDG_DATA_DIRS": "/nowhere"], executablePath: "/opt/x/tactus", isDirectory: exists).shipped == nil)
        #expect(PresetDirectories.standard(environment: ["TACTUS_PRESETS_DIR": "/mine"], executablePath: "/usr/bin/tactus", isDirectory: exists).shipped == "/mine")
    }

    /// Not beside the executable (a copy in ~/bin, a build elsewhere): the installed ones,
    /// through XDG_DATA_DIRS as the XDG Base Directory spec says, its default when unset or empty.
    @Test func elsewhereTheShippedFolderComesFromXDGDataDirs() {
        let folders: Set<String> = ["/src/tactus/Presets", "/usr/share/tactus/presets", "/opt/data/tactus/presets"]
        let exists: (String) -> Bool = { folders.contains($0) }
        let away = "/home/u/bin/tactus"
        for unset in [[:], ["XDG_DATA_DIRS": ""]] as [[String: String]] {
            #expect(PresetDirectories.standard(environment: unset, executablePath: away, isDirectory: exists).shipped == "/usr/share/tactus/presets")
        }
        #expect(PresetDirectories.standard(environment: ["XDG_DATA_DIRS": "relative:/opt/data/:/usr/share"], executablePath: away, isDirectory: exists).shipped
            == "/opt/data/tactus/presets")
        #expect(PresetDirectories.standard(environment: ["XDG_DATA_DIRS": "/usr/share"], executablePath: nil, isDirectory: exists).shipped == "/usr/share/tactus/presets")
        // The clone's Presets/ still wins for the clone's build, and the override over both.
        let clone = PresetDirectories.standard(environment: ["XDG_DATA_DIRS": "/opt/data"], executablePath: "/src/tactus/.build/release/tactus", isDirectory: exists)
        #expect(clone.shipped == "/src/tactus/Presets")
        #expect(PresetDirectories.standard(environment: ["TACTUS_PRESETS_DIR": "/mine"], executablePath: away, isDirectory: exists).shipped == "/mine")
    }

    @Test func theTestExecutableFindsThisClonesPresets() throws {
        let executable = try #require(PresetDirectories.currentExecutable)
        #expect(PresetDirectories.standard(environment: [:], executablePath: executable).shipped == shippedPresetsFolder)
    }

    // MARK: - --preset

    @Test func presetArgumentIsANameOrAPath() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let file = folder.write("own.json", #"{ "name": "Own", "tempo": 77 }"#)
        let library = PresetLibrary(shipped: [entry("Allegro", 138), entry("7/8 (2+2+3)", 210)], user: [])
        #expect(try library.resolve("allegro").preset.tempo == BPM(138))
        // A name with a slash is still a name when a preset has it.
        #expect(try library.resolve("7/8 (2+2+3)").preset.tempo == BPM(210))
        #expect(try library.resolve(file) == PresetEntry(preset: Preset(name: "Own", tempo: BPM(77)), file: file, origin: .file))
        let unknown = #expect(throws: PresetError.self) { try library.resolve("Lento") }
        #expect(unknown?.messages == ["--preset: no preset is named \"Lento\"; allowed: a preset name (tactus presets lists them) or the path of a preset file"])
        let missing = #expect(throws: PresetError.self) { try library.resolve("lento.json") }
        #expect(missing?.messages == ["lento.json: no such file; allowed: a readable file"])
    }
}
