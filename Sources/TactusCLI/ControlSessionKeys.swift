import TactusCore

/// The terminal's keys (`KeyAction`), read by the key reader and drained by the
/// control thread in the same round as the MIDI inputs: a key that asks for
/// something is carried out as the same wish from a pedal or OSC would be
/// (`carryOut`); what is left here is the terminal's own editing: typing a
/// tempo or a preset's name, moving the beat cursor.
extension ControlSession {
    /// Carries out one key of the terminal, at the time its byte arrived.
    public func perform(_ key: TimedKeyAction) {
        clearMessage()
        if let intent = key.action.intent {
            if let refusal = carryOut(intent, from: .keys, at: key.microseconds) { say(refusal) }
            return
        }
        switch key.action {
        case .moveBeatCursor(let step):
            let count = bar.meter.beatsPerBar
            editing.cursor = beatCursor.map { (($0 + step) % count + count) % count } ?? 0
        case .entryDone where !editing.isName:
            let text = editing.text ?? ""
            editing.text = nil
            guard let value = Double(text), let tempo = BPM(exactly: value) else {
                return say("'\(text)' is not a tempo: type 1 to 999 BPM after =, then Enter")
            }
            carryOut(.tempo(tempo), from: .keys, at: key.microseconds)
        default:
            type(key.action)
        }
    }

    /// `=` digits Enter: a tempo, checked against 1…999 BPM; `w` name Enter: a user preset.
    private func type(_ action: KeyAction) {
        switch action {
        case .beginTempoEntry, .beginNameEntry:
            editing.text = ""
            editing.isName = action == .beginNameEntry
        case .entryCharacter(let byte):
            guard let text = editing.text, text.count < (editing.isName ? Preset.maximumNameLength : 6) else { break }
            editing.text = text + String(UnicodeScalar(byte))
        case .entryBackspace:
            if editing.text?.isEmpty == false { editing.text?.removeLast() }
        case .entryDone:
            let text = editing.text ?? ""
            editing.text = nil
            return saveAsPreset(named: text)
        default:
            editing.text = nil
            return say(editing.isName ? "preset not saved" : "tempo entry dropped")
        }
        say((editing.isName ? "save as user preset, name and Enter: " : "type a tempo, Enter to set it (1 to 999 BPM): ") + (editing.text ?? ""))
    }

    /// The settings asked for last (a pending bar change included): the current
    /// preset's sounds and clock options, with the tempo, bar, clock offset and
    /// pressure settings of now, no program number (it could clash).
    private func saveAsPreset(named typed: String) {
        let name = String(typed.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        guard !name.isEmpty else { return say("preset not saved: type a name after w, then Enter") }
        if let shipped = presets?.library.entries.first(where: { $0.origin == .shipped && $0.preset.name.lowercased() == name.lowercased() }) {
            return say("preset not saved: '\(shipped.preset.name)' is a shipped preset; choose another name")
        }
        var preset = presets?.current?.preset ?? Preset(name: name, tempo: loop.tempo)
        preset.name = name
        preset.tempo = loop.tempo
        preset.bar = bar
        preset.clock.offsetMilliseconds = clockOffsetMilliseconds
        preset.pressure = loop.controller.configuration
        preset.sounds.gains = gains
        preset.sounds.gains.master = 1
        preset.program = nil
        say(savePreset(preset))
    }
}
