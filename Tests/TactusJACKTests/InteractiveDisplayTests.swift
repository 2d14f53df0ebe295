import Foundation
import Testing
@testable import TactusCLI
import TactusCore

extension JACKServerTests {
    /// `tactus -i` in a real terminal (tmux) on a private JACK server: what the
    /// player sees, types and hears.
    @Suite(.serialized) struct InteractiveDisplay {
        /// One run of `tactus` in a tmux pane, with the terminal settings (`stty -g`)
        /// saved before it and after it and its exit status, in files.
        final class Run {
            let server: JackTestServer
            let name: String
            let tmux: Tmux
            let files: URL
            let before: URL
            let after: URL
            let exit: URL
            let redraws: URL

            init(server: JackTestServer, name: String, _ arguments: [String], width: Int = 80, height: Int = 24) throws {
                self.server = server
                self.name = name
                files = TestFiles.file("\(server.name).\(name)")
                before = files.appendingPathComponent("stty-before")
                after = files.appendingPathComponent("stty-after")
                exit = files.appendingPathComponent("exit")
                redraws = files.appendingPathComponent("redraws")
                try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
                let state = files.appendingPathComponent("home").path
                // The player's own presets, controller and last tempo stay out of the test.
                let environment = "XDG_CONFIG_HOME=\(state)/config XDG_STATE_HOME=\(state)/state TACTUS_REDRAW_COUNT_FILE=\(redraws.path)"
                let tactus = ([TestFiles.tactus, "-i", "--no-alsa", "-s", server.name, "-n", name] + arguments).joined(separator: " ")
                let script = "stty -g > \(before.path); env \(environment) \(tactus); echo $? > \(exit.path); stty -g > \(after.path).part; mv \(after.path).part \(after.path); sleep 600"
                tmux = try Tmux(command: "sh -c '\(script)'", width: width, height: height)
            }

            func waitForExit(seconds: Double = 10) -> Int32? {
                guard TestProcess.waitForFile(after, seconds: seconds) else { return nil }
                return Int32((try? String(contentsOf: exit, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
            }

            var terminalRestored: Bool {
                guard let a = try? String(contentsOf: before, encoding: .utf8), let b = try? String(contentsOf: after, encoding: .utf8) else { return false }
                return !a.isEmpty && a == b
            }

            /// Redraws counted so far (`TACTUS_REDRAW_COUNT_FILE`).
            var redrawCount: Int {
                Int((try? String(contentsOf: redraws, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
            }
        }

        /// A script for `tactus-jack-probe send`: "SECONDS HEX HEX…" lines.
        static func script(_ name: String, _ lines: [String]) throws -> URL {
            let url = TestFiles.file(name)
            try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
            return url
        }

        static func send(server: JackTestServer, to port: String, script: URL, name: String = "sender") throws -> Process {
            try TestProcess.launch(TestFiles.probe, ["send", "-s", server.name, "--name", name, "--to", port, "--script", script.path],
                                   output: URL(fileURLWithPath: script.path + ".log"))
        }

        /// Where the brackets are on the beat row: 1-based beat, and its symbol.
        static func bracketedBeat(_ row: String) -> (beat: Int, symbol: Character)? {
            let cells = row.dropFirst(8)
            guard let open = cells.firstIndex(of: "[") else { return nil }
            let position = cells.distance(from: cells.startIndex, to: open)
            return (position / 4 + 1, cells[cells.index(after: open)])
        }

        @Test func keysSetTheTempoShownAndHeardTheBeatMovesAndQuitRestoresTheTerminal() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let recording = TestFiles.file("\(server.name).display.recording")
            let recorder = try Launch.recorder(server: server.name, out: recording)
            defer { _ = Launch.stop(recorder) }
            let run = try Run(server: server, name: "disp-keys", ["rec:audio_1", "--connect-clock", "rec:midi_1"])

            let started = run.tmux.waitFor { $0.contains("Tactus  RUNNING") && $0.row("JACK")?.hasPrefix("JACK    \(server.name): disp-keys  48000 Hz  256 frames  xruns ") == true }
            #expect(started != nil, "\((try? run.tmux.screen()) ?? [])")
            #expect(started?.row("tempo")?.wholeMatch(of: /tempo   120 BPM   4\/4   bar:beat \d+:\d+/) != nil, "\(started ?? [])")
            #expect(started?.row("MIDI") == "MIDI    JACK clock -> rec:midi_1")

            // The beat indicator moves through the bar: all four beats bracketed
            // within 2.5 s at 120 BPM, the downbeat as the accent X, the others x.
            var seen: [Int: Character] = [:]
            let watchUntil = Date().addingTimeInterval(2.5)
            while Date() < watchUntil {
                if let row = try run.tmux.screen().row("beat"), let b = Self.bracketedBeat(row) { seen[b.beat] = b.symbol }
                Thread.sleep(forTimeInterval: 0.03)
            }
            #expect(seen == [1: "X", 2: "x", 3: "x", 4: "x"])

            // → → → ↑: 121, 122, 123, 133.
            try run.tmux.keys("Right", "Right", "Right", "Up")
            let faster = run.tmux.waitFor(seconds: 3) { $0.row("tempo")?.hasPrefix("tempo   133 BPM   4/4") == true }
            #expect(faster != nil, "\((try? run.tmux.screen()) ?? [])")
            Thread.sleep(forTimeInterval: 3)

            try run.tmux.keys("q")
            #expect(run.waitForExit() == 0)
            #expect(run.terminalRestored, "stty settings differ after q")
            let after = try run.tmux.screen()
            #expect(!after.contains("Tactus  RUNNING"), "back on the main screen: \(after)")
            // q is no signal to the player.
            #expect(!after.contains { $0.contains("SIGINT received") }, "\(after)")
            #expect(after.contains { $0.contains("stopped after") }, "what was said is printed after the display: \(after)")

            // Heard: the recorded clock ran at 120 BPM (1000 frames a tick) and ends
            // at 133 BPM (902.26 frames a tick) on an exact grid, then MIDI Stop.
            _ = Launch.stop(recorder)
            let r = try Recording(contentsOf: recording)
            let ticks = r.ticks()
            let stop = try #require(r.midi().last { $0.bytes == [0xFC] })
            let first = Array(ticks.prefix(40))
            let start = GridFit(first, interval: 1000)
            #expect(start.count == 40 && start.fittedError <= 0.5 && start.gaps == 0, "120 BPM: \(start)")
            let last = ticks.filter { $0 < stop.frame && $0 > stop.frame - 2 * 48000 }
            let end = GridFit(last, interval: 48000.0 * 60 / 133 / 24)
            #expect(end.count >= 100 && end.fittedError <= 0.5 && end.gaps == 0, "133 BPM: \(end)")
        }

        @Test func theForceBarAndLevelFollowChannelPressureOnTheUpKey() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let run = try Run(server: server, name: "disp-force", ["--start-stopped"])
            #expect(run.tmux.waitFor { $0.contains("Tactus  STOPPED") && $0.row("JACK")?.contains("disp-force") == true } != nil)
            // Up key (72) down at 0.5 s, pressure 64 (light: 64/127 = 50 %) until 2.5 s,
            // 100 (strong: 79 %) until 4.5 s, then 0 and the key up.
            var lines = ["0.5 90 48 64"]
            for k in 0..<40 { lines.append("\(0.6 + Double(k) * 0.05) D0 40") }
            for k in 0..<40 { lines.append("\(2.6 + Double(k) * 0.05) D0 64") }
            lines += ["4.6 D0 00", "4.7 80 48 00"]
            let sender = try Self.send(server: server, to: "disp-force:control", script: Self.script("\(server.name).force.script", lines))
            defer { _ = Launch.stop(sender) }

            // Light: after the 0.32 s hold delay, +1 BPM every 0.16 s = +6.25 BPM/s.
            let light = run.tmux.waitFor(seconds: 5) { $0.row("force")?.contains("+6.25") == true }
            #expect(light?.row("force") == "force   [#################----------------]   50%  light   up        +6.25 BPM/s")
            let strong = run.tmux.waitFor(seconds: 5) { $0.row("force")?.contains("+62.5") == true }
            #expect(strong?.row("force") == "force   [##########################-------]   79%  strong  up        +62.5 BPM/s")
            let released = run.tmux.waitFor(seconds: 5) { $0.row("force")?.contains("up") == false }
            #expect(released?.row("force") == "force   [---------------------------------]    0%  rest    -             0 BPM/s")
            // The hold moved the tempo up: light steps of 1, then strong steps of 10.
            let tempo = released?.row("tempo").flatMap { Double($0.split(separator: " ")[1]) } ?? 0
            #expect(tempo > 200, "tempo after the hold: \(tempo)")
            try run.tmux.keys("q")
            #expect(run.waitForExit() == 0)
            #expect(run.terminalRestored)
        }

        @Test func redrawsStayAtMost30ASecondUnderAPressureFloodAndAtNoneWhenIdle() throws {
            // A period of 1024 frames: the idle part is about the display, and the
            // server's own figures (xruns, DSP load) move less on a busy machine.
            let server = try JackTestServer(period: 1024)
            defer { server.stop() }
            let run = try Run(server: server, name: "disp-flood", ["--start-stopped"])
            #expect(run.tmux.waitFor { $0.contains("Tactus  STOPPED") && $0.row("JACK")?.contains("disp-flood") == true } != nil)
            // Idle: stopped, no input: after the start-up draws, nothing. The start-up
            // message ("click is not connected") goes after its 5 s, which is a change
            // on screen: the idle windows start once it has gone.
            let said = run.tmux.waitFor(seconds: 5) { $0.contains { $0.hasPrefix("> disp-flood:click is not connected") } }
            #expect(said != nil, "no start-up message: \((try? run.tmux.screen()) ?? [])")
            let messageGone = run.tmux.waitFor(seconds: 10) { !$0.contains { $0.hasPrefix("> ") } }
            #expect(messageGone != nil, "the start-up message stays: \((try? run.tmux.screen()) ?? [])")
            // On a busy machine the server may report an xrun or its DSP load may
            // move, which the JACK row shows: a window whose redraws changed nothing
            // but those figures is measured again; a redraw that changed anything
            // else, or a window in which nothing on screen changed but the display
            // was redrawn, fails at once.
            Thread.sleep(forTimeInterval: 0.3)
            var quietWindow: (redraws: Int, seconds: Double)?
            var windows: [String] = []
            for _ in 0..<8 where quietWindow == nil {
                // The screen before the count, and again after it has settled: a redraw
                // counted in the window is on a screen read in the window (the count is
                // written after the redraw, and tmux shows it a moment later still).
                var screens: [[String]] = [try run.tmux.screen()]
                func look() throws {
                    let screen = try run.tmux.screen()
                    if screen != screens.last { screens.append(screen) }
                }
                let start = Date(), before = run.redrawCount
                while Date().timeIntervalSince(start) < 2 {
                    try look()
                    Thread.sleep(forTimeInterval: 0.05)
                }
                let redraws = run.redrawCount - before
                let settled = Date()
                while redraws > 0 && Date().timeIntervalSince(settled) < 0.3 {
                    try look()
                    Thread.sleep(forTimeInterval: 0.05)
                }
                windows.append("\(redraws) redraws, \(screens.count) screens")
                if redraws == 0 {
                    quietWindow = (0, Date().timeIntervalSince(start))
                    continue
                }
                let first = screens[0]
                let changedRows = Set(screens.flatMap { screen in screen.indices.filter { $0 >= first.count || screen[$0] != first[$0] } })
                let jackRow = first.firstIndex { $0.hasPrefix("JACK") }
                #expect(changedRows.isSubset(of: Set([jackRow].compactMap { $0 })) && !changedRows.isEmpty,
                        "idle redraws with nothing but \(changedRows) changed: \(screens)")
                // In the JACK row only the server's figures: its xrun count (which never
                // goes down) and the DSP load; its name, the rate and the period stay.
                let figures = screens.compactMap { $0.row("JACK")?.firstMatch(of: /^(.* frames  )xruns (\d+)  DSP \d+%$/) }
                #expect(figures.count == screens.count && Set(figures.map { String($0.output.1) }).count == 1,
                        "the JACK row changed in more than its xruns and DSP figures: \(screens.map { $0.row("JACK") ?? "" })")
                let xruns = figures.compactMap { Int($0.output.2) }
                #expect(xruns == xruns.sorted(), "xruns went down: \(xruns)")
            }
            #expect(quietWindow != nil, "no idle window without a redraw: \(windows)")
            let idleReport = windows.joined(separator: "; ")

            // 1000 channel pressure events a second for 4 s on the held up key, the
            // force sweeping 4…67 so nearly every event changes what is shown.
            var lines = ["0.5 90 48 64"]
            for k in 0..<4000 { lines.append("\(0.6 + Double(k) * 0.001) D0 \(String(4 + k % 64, radix: 16))") }
            lines.append("4.7 80 48 00")
            let sender = try Self.send(server: server, to: "disp-flood:control", script: Self.script("\(server.name).flood.script", lines))
            defer { _ = Launch.stop(sender) }
            #expect(run.tmux.waitFor(seconds: 5) { $0.row("force")?.contains("light") == true } != nil)
            let t0 = Date(), c0 = run.redrawCount
            Thread.sleep(forTimeInterval: 2.5)
            let t1 = Date(), c1 = run.redrawCount
            let rate = Double(c1 - c0) / t1.timeIntervalSince(t0)
            print("redraws under 1000 pressure events/s: \(c1 - c0) in \(t1.timeIntervalSince(t0)) s = \(rate)/s; idle 2 s windows: \(idleReport)")
            #expect(rate <= 30.5, "\(c1 - c0) redraws in \(t1.timeIntervalSince(t0)) s")
            #expect(rate >= 15, "the display keeps up with the flood: \(rate)/s")
            try run.tmux.keys("q")
            #expect(run.waitForExit() == 0)
            #expect(run.terminalRestored)
        }

        @Test func sigtermStopsCleanlyAndRestoresTheTerminal() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let run = try Run(server: server, name: "disp-term", [])
            #expect(run.tmux.waitFor { $0.contains("Tactus  RUNNING") } != nil)
            let pid = try #require(try run.tmux.commandPID())
            #expect(kill(pid, SIGTERM) == 0)
            #expect(run.waitForExit() == 0)
            #expect(run.terminalRestored, "stty settings differ after SIGTERM")
            let after = try run.tmux.screen()
            #expect(after.contains { $0.contains("SIGTERM received: stopping") }, "\(after)")
        }

        /// A stop (SIGTSTP, as a shell's job control sends) gives the terminal
        /// back as it was; on SIGCONT the display comes back in full.
        @Test func aStopRestoresTheTerminalAndContinuingRedrawsTheDisplay() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let run = try Run(server: server, name: "disp-stop", ["--start-stopped"])
            #expect(run.tmux.waitFor { $0.contains("Tactus  STOPPED") && $0.row("JACK")?.contains("disp-stop") == true } != nil)
            let pid = try #require(try run.tmux.commandPID())
            let tty = try run.tmux.run(["display-message", "-p", "-t", run.tmux.target, "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
            func settings() throws -> String {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/stty")
                process.arguments = ["-F", tty, "-g"]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let before = try String(contentsOf: run.before, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try settings() != before, "raw while the display runs")
            #expect(kill(pid, SIGTSTP) == 0)
            let stopped = Date().addingTimeInterval(5)
            while Date() < stopped, (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ")[2] != "T" {
                Thread.sleep(forTimeInterval: 0.02)
            }
            #expect(try settings() == before, "cooked again while stopped")
            #expect(try run.tmux.screen().contains("Tactus  STOPPED") == false, "main screen while stopped")
            #expect(kill(pid, SIGCONT) == 0)
            #expect(run.tmux.waitFor(seconds: 3) { $0.contains("Tactus  STOPPED") && $0.row("keys") != nil } != nil, "the display is back")
            #expect(try settings() != before, "raw again")
            try run.tmux.keys("q")
            #expect(run.waitForExit() == 0)
            #expect(run.terminalRestored)
        }

        /// `>` moves a caret under the beat row, `a` cycles
        /// that beat's accent (x → o → .), shown and heard from the next bar line.
        @Test func item10_aCyclesTheAccentOfTheBeatUnderTheCursorFromTheNextBarLine() throws {
            let server = try JackTestServer()
            defer { server.stop() }
            let recording = TestFiles.file("\(server.name).accent.recording")
            let recorder = try Launch.recorder(server: server.name, out: recording)
            defer { _ = Launch.stop(recorder) }
            let run = try Run(server: server, name: "disp-accent", ["rec:audio_1", "--connect-clock", "rec:midi_1"])
            let started = run.tmux.waitFor { $0.contains("Tactus  RUNNING") && $0.row("JACK")?.contains("disp-accent") == true }
            #expect(started != nil, "\((try? run.tmux.screen()) ?? [])")
            #expect(started?.contains { $0.contains("^  a: accent") } == false, "no caret before a cursor key")

            // > > : the caret under beat 2 ("beat     X   x" puts beat 2's symbol in column 13).
            try run.tmux.keys(">", ">")
            let caret = run.tmux.waitFor(seconds: 3) { $0.contains { $0.hasSuffix("^  a: accent of beat 2") } }
            #expect(caret?.first { $0.hasSuffix("^  a: accent of beat 2") } == String(repeating: " ", count: 13) + "^  a: accent of beat 2",
                    "\(caret ?? [])")
            // a a: beat 2 soft, then silent; the beat row shows X . x x once the bar line plays it.
            try run.tmux.keys("a", "a")
            let said = run.tmux.waitFor(seconds: 3) { $0.contains { $0.contains("beat 2 .: accents X.xx") } }
            #expect(said != nil, "\((try? run.tmux.screen()) ?? [])")
            let heard = run.tmux.waitFor(seconds: 5) { lines in
                lines.row("beat").map { $0.dropFirst(8).filter { !" []".contains($0) } == "X.xx" } == true
            }
            #expect(heard != nil, "\((try? run.tmux.screen()) ?? [])")
            // Three more bars at 120 BPM (2 s a bar) heard with it.
            Thread.sleep(forTimeInterval: 6)
            try run.tmux.keys("q")
            #expect(run.waitForExit() == 0)
            #expect(run.terminalRestored)

            // Heard: beats of 24 000 frames (120 BPM) until a bar line, then every bar without its 2nd beat.
            _ = Launch.stop(recorder)
            let clicks = try Recording(contentsOf: recording).clicks()
            let intervals = zip(clicks.dropFirst(), clicks).map { $0 - $1 }
            let first = try #require(intervals.firstIndex { abs($0 - 48_000) <= 1 }, "beat 2 never fell silent: \(intervals)")
            #expect(intervals[..<first].allSatisfy { abs($0 - 24_000) <= 1 }, "\(intervals[..<first])")
            #expect((clicks[first] - clicks[0] + 12_000) / 24_000 % 4 == 0, "the silence begins on a bar line: click \(first)")
            let after = Array(intervals[first...].dropLast())
            #expect(after.count >= 6, "\(after)")
            for (k, interval) in after.enumerated() {
                #expect(abs(interval - (k % 3 == 0 ? 48_000 : 24_000)) <= 1, "interval \(k) after the change: \(after)")
            }
        }

        @Test func aNarrowTerminalStillShowsTempoBeatAndForce() throws {
            // A short server name: "JACK    tactus-test-PID-N: disp-narrow" passes
            // 40 columns once the PID has 5 digits and N 2 (the 10th server of a run),
            // and the client name it waits for is cut off.
            let server = try JackTestServer(name: "n\(getpid())")
            defer { server.stop() }
            let run = try Run(server: server, name: "disp-narrow", ["--bpm", "97.3", "--start-stopped"], width: 40, height: 12)
            let screen = run.tmux.waitFor { $0.contains("Tactus  STOPPED") && $0.row("JACK")?.contains("disp-narrow") == true }
            #expect(screen?.row("tempo") == "tempo   97.30 BPM   4/4   bar:beat -:-")
            // (tmux drops the spaces at the end of a row)
            #expect(screen?.row("beat") == "beat     X   x   x   x")
            // No controller has sent anything, so no force bar yet.
            #expect(screen?.row("force") == "force   no controller (nothing received")
            // Wrapped rows joined back: a row wider than the pane would show here.
            let joined = try run.tmux.screen(joiningWrapped: true)
            #expect(!joined.isEmpty && joined.allSatisfy { $0.count <= 40 }, "\(joined)")
            // Resized to 80 columns: the whole force row comes back.
            try run.tmux.run(["resize-window", "-t", run.tmux.target, "-x", "80", "-y", "24"])
            let wide = run.tmux.waitFor(seconds: 3) { $0.row("force")?.hasSuffix("yet)") == true }
            #expect(wide?.row("force") == "force   no controller (nothing received on the control port yet)")
            try run.tmux.keys("C-c")
            #expect(run.waitForExit() == 0)
            #expect(run.terminalRestored)
        }
    }
}
