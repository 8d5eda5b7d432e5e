/// How much styling rendered text may carry.
public enum StyleMode: Hashable, Sendable {
    /// Attributes and colours.
    case color
    /// Attributes (bold, dim, underline, reverse) but no colours: what `NO_COLOR`
    /// asks for. The NO_COLOR convention covers colour only, and the selection
    /// bar needs reverse video to be seen at all.
    case monochrome
    /// No escape sequences at all: for `TERM=dumb` and output that is not a terminal.
    case plain
}
