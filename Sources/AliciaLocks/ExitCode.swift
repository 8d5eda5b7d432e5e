/// The exit statuses every command ends with, and the program's version.
package enum ExitCode {
    package static let success: Int32 = 0
    package static let failure: Int32 = 1
    /// A command line that cannot be run (and a `--start` past the end).
    package static let usage: Int32 = 2
}

package enum Product {
    package static let version = "0.1.0"
}
