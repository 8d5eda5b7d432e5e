#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaLocks
import AliciaSession
import AliciaLibrary
import AliciaHost

/// `alicia-player script FILE [--check]` (`-` for stdin): checks the whole script (every command,
/// every reference), then runs it, one command a line, on a listening session's host.
final class ScriptCommand {
    let path: String
    let checkOnly: Bool
    let options: PlayOptions

    init(path: String, checkOnly: Bool, options: PlayOptions) {
        self.path = path
        self.checkOnly = checkOnly
        self.options = options
    }

    /// What a line runs with: its items resolved at check time.
    enum Step {
        case command(Script.Command)
        case play([QueueItem])
        case append([QueueItem])
        case voice(QueueItem)
    }

    private var name: String { path == "-" ? "stdin" : path }

    func run() -> Int32 {
        let signals = SignalWatcher()
        let bytes: [UInt8]
        switch QueueResolver.contents(of: path) {
        case .success(let read): bytes = read
        case .failure(let problem):
            Console.fail(problem.message)
            return ExitCode.usage
        }
        // Every problem at once, in line order: what does not parse, and what it names that cannot play.
        let script = Script.parse(bytes)
        var problems = script.problems.map { (line: $0.line, text: "\(name):\($0.line): \($0.message)") }
        let steps = check(script, problems: &problems)
        guard problems.isEmpty, let steps else {
            for problem in problems.sorted(by: { $0.line < $1.line }) { Console.fail(problem.text) }
            return ExitCode.usage
        }
        if checkOnly { return ExitCode.success }
        switch SessionHost.open(options, signals: signals) {
        case .failure(let failure): return failure.status
        case .success(let host):
            host.start { Console.fail("warning: " + $0) }
            return host.run(ScriptFrontEnd(steps: steps.map(\.step), host: host))
        }
    }

    /// Every reference resolved, and `say` checked for a backend; nil (after saying why, line by
    /// line) when any line cannot run.
    private func check(_ script: Script, problems found: inout [(line: Int, text: String)]) -> [(line: Int, step: Step)]? {
        let resolver = QueueResolver(backend: options.backend)
        let directory = QueueResolver.directory(of: path)
        var steps: [(line: Int, step: Step)] = []
        var problems: [(line: Int, text: String)] = []
        var backendChecked = false
        func items(_ references: [String], line: Int) -> [QueueItem] {
            references.flatMap { reference -> [QueueItem] in
                switch resolver.items(reference, relativeTo: directory) {
                case .success(let items): return items
                case .failure(let problem):
                    problems.append((line, "\(name):\(line): \(problem.message)"))
                    return []
                }
            }
        }
        for line in script.lines {
            switch line.command {
            case .play(let references): steps.append((line.number, .play(items(references, line: line.number))))
            case .append(let references): steps.append((line.number, .append(items(references, line: line.number))))
            case .voice(let reference):
                if let note = items(["voice:" + reference], line: line.number).first { steps.append((line.number, .voice(note))) }
            case .say:
                if !backendChecked {
                    backendChecked = true
                    do {
                        _ = try BackendSession(options.backend)
                    } catch .notConfigured {
                        problems.append((line.number, "\(name):\(line.number): say needs Alicia's backend, and none is configured"))
                    } catch {
                        problems.append((line.number, "\(name):\(line.number): say: \(error.message)"))
                    }
                }
                steps.append((line.number, .command(line.command)))
            default:
                steps.append((line.number, .command(line.command)))
            }
        }
        found += problems
        return problems.isEmpty ? steps : nil
    }

    /// `state position duration title`: seconds with two decimals, `-` for an unknown length.
    static func statusLine(_ snapshot: PlayerSnapshot) -> String {
        let position = TimeSpec.seconds(snapshot.position)
        let duration = snapshot.duration.map(TimeSpec.seconds) ?? "-"
        return "\(snapshot.state.rawValue) \(position) \(duration) \(ItemDetails(snapshot)?.title ?? "-")"
    }
}
