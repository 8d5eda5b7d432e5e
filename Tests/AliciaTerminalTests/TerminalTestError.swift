/// A failed C call in a test's own set-up.
struct TerminalTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
