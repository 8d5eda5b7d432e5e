/// A failure of the tests' own machinery (a temporary directory, a child process), with what failed.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
