/// One key press (or one paste) read from a terminal in raw mode.
public enum Key: Hashable, Sendable {
    /// A printable character, one Unicode scalar per key: an emoji typed as a
    /// ZWJ sequence arrives as several, which a `String` joins back into one
    /// `Character` when they are appended in order.
    case character(Character)
    /// Ctrl with a letter (`"a"` … `"z"`, lower case) or with one of `@ \ ] ^ _`.
    /// Ctrl-H, -I, -J and -M come as `.backspace`, `.tab` and `.enter`, the keys
    /// that send the same bytes. In raw mode Ctrl-C and Ctrl-Z arrive here
    /// rather than as signals.
    case control(Character)
    /// Alt (Meta) with a printable ASCII character: ESC followed by it.
    case alt(Character)
    /// Return or Enter (CR or LF).
    case enter
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace (DEL or BS).
    case backspace
    /// The forward Delete key.
    case delete
    /// A lone ESC: decided by `KeyDecoder.flush()` when no byte followed it.
    case escape
    case up, down, left, right
    case home, end, pageUp, pageDown
    /// A bracketed paste, its line breaks normalised to `"\n"`.
    case paste(String)
}
