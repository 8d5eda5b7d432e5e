#if canImport(Glibc)
import Glibc
#endif
import AliciaFeeds
import Testing

/// How much a read of a document raises the peak resident set, measured in a child process of its
/// own: this test binary run again to do only `feedMeasureChildRole`. The peak is the process's
/// (VmHWM), so measured in the test process it counted whatever the tests beside it allocated
/// (a 203 MiB "growth" once, beside a whole suite under load).
enum MeasuredRead {
    static let variable = "ALICIA_FEEDS_MEASURE"

    /// The growth of the peak, in bytes, of reading `bytes` in a child; nil (with an issue
    /// recorded) when the child could not say.
    static func peakGrowth(of bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Int? {
        let input = "/tmp/alicia-feeds-measure-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let output = input + ".out"
        defer { unlink(input); unlink(output) }
        guard let file = fopen(input, "w") else {
            Issue.record("cannot write \(input)", sourceLocation: sourceLocation)
            return nil
        }
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let arguments = ["/proc/self/exe", "--testing-library", "swift-testing", "--filter", "feedMeasureChildRole"]
        var environment: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            environment.append(String(cString: pointer))
            entry += 1
        }
        environment.append("\(variable)=\(input)")
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/proc/self/exe", &actions, nil, argv, envp) == 0 else {
            Issue.record("cannot run the test binary again", sourceLocation: sourceLocation)
            return nil
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let said = readText(output)
        guard let line = said.split(separator: "\n").first(where: { $0.hasPrefix("peak grew by ") }),
              let grown = Int(line.dropFirst("peak grew by ".count)) else {
            Issue.record("the measuring child said: \(said.suffix(2000))", sourceLocation: sourceLocation)
            return nil
        }
        return grown
    }

    static func readText(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Not a test of its own: in the child `MeasuredRead` spawns it reads the document in the file
/// `ALICIA_FEEDS_MEASURE` names and says how much its peak grew; in the ordinary run it does nothing.
@Test func feedMeasureChildRole() {
    guard let path = getenv(MeasuredRead.variable).map({ String(cString: $0) }) else { return }
    let bytes = Array(MeasuredRead.readText(path).utf8)
    let before = peakResidentBytes()
    _ = FeedDocument.read(bytes, url: "https://example.com/feed.xml", now: testNow)
    let line = Array("peak grew by \(peakResidentBytes() - before)\n".utf8)
    _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    _exit(0)
}
