#if canImport(Glibc)
import Glibc
#endif

/// This test binary run again as a child process in a role (`ChildRoles`): spawned with
/// `posix_spawn` to run only the test `storeChildProcessRole`, which, seeing `ALICIA_STORE_ROLE`,
/// plays the role and exits with its status instead of testing. Pipes given in `descriptors` are
/// the child's 3, 4, …; its stdout and stderr go to `output`, for the failure message.
///
/// Tests that spawn run in one serialized suite: no other child is spawned between a pipe's
/// creation and its close-on-exec flag, so no child holds another's pipe.
struct StoreChild {
    let pid: pid_t
    let output: String

    static let roleVariable = "ALICIA_STORE_ROLE"

    static func spawn(role: String, environment: [String: String], descriptors: [Int32], output: String) throws(TestFailure) -> StoreChild {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Copies far above 3, 4, …: a pipe end that is already, say, 4 would otherwise be clobbered
        // by the first dup2 or keep its close-on-exec flag (a dup2 onto itself changes nothing).
        let high = descriptors.map { fcntl($0, F_DUPFD_CLOEXEC, 200) }
        defer { high.forEach { close($0) } }
        for (offset, fd) in high.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, fd, Int32(3 + offset))
        }
        let executable = "/proc/self/exe"
        let arguments = [executable, "--testing-library", "swift-testing", "--filter", "storeChildProcessRole"]
        var variables = inheritedEnvironment()
        variables[roleVariable] = role
        variables.merge(environment) { _, new in new }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw TestFailure("posix_spawn of the test binary: \(String(cString: strerror(result)))") }
        return StoreChild(pid: pid, output: output)
    }

    private static func inheritedEnvironment() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }

    /// Waits for it to end: its exit status, or 128 + the signal that ended it.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// What it printed (its error, when it failed).
    var printed: String { ScratchDirectory.read(output).map { String(decoding: $0, as: UTF8.self) } ?? "" }
}

/// A pipe whose ends close on exec (a child gets an end only as one of its `descriptors`); each
/// end is closed once, by `closeWriteEnd()` or when the pipe goes (a descriptor closed twice could
/// be another test's by then).
final class TestPipe {
    let readEnd: Int32
    let writeEnd: Int32
    private var writeEndOpen = true

    init() throws(TestFailure) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        if writeEndOpen { close(writeEnd) }
    }

    /// After spawning the children that write to it: a read then ends when they all have.
    func closeWriteEnd() {
        guard writeEndOpen else { return }
        writeEndOpen = false
        close(writeEnd)
    }

    /// Writes `count` bytes.
    func signal(_ count: Int = 1) {
        let bytes = [UInt8](repeating: 1, count: count)
        _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, count) }
    }

    /// Reads `count` bytes from `fd`; false when the pipe ended first (every writer gone).
    static func await(_ fd: Int32, count: Int = 1) -> Bool {
        var got = 0
        var byte: UInt8 = 0
        while got < count {
            let n = read(fd, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            got += 1
        }
        return true
    }
}
