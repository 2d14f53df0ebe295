/// What the terminal's keys are editing, beside the wishes they make: a tempo
/// or a preset's name being typed, and the beat whose accent `a` edits. Only
/// the keys change it; the display shows it.
struct KeyEditing {
    /// What is typed after `=` (a tempo) or `w` (a preset's name); nil: nothing.
    var text: String?
    /// Whether `text` is a preset's name (`w`), not a tempo (`=`).
    var isName = false
    /// The beat (from 0) under the cursor once `<` `>` or `a` was pressed; nil before.
    var cursor: Int?
}
