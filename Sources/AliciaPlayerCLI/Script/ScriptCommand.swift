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

    /// What a line runs with: its references resolved at check time.
    enum Step {
        /// `play`, `append`, `loadfile`, `speak`: one plan for the whole line.
        case load(LoadPlan)
        case voice(QueueItem)
        case request(CommandRequest)
        case wait(Script.Wait)
        case echo(String)
        case status
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

    /// The queue the script builds, in the order its lines load it (a replace starts it again;
    /// waits, seeks and settings left out): what `render --script` renders. The exit status after
    /// saying why, line by line, when the script cannot run.
    func queue() -> Result<[QueueItem], ExitStatus> {
        let bytes: [UInt8]
        switch QueueResolver.contents(of: path) {
        case .success(let read): bytes = read
        case .failure(let problem):
            Console.fail(problem.message)
            return .failure(ExitStatus(ExitCode.usage))
        }
        let script = Script.parse(bytes)
        var problems = script.problems.map { (line: $0.line, text: "\(name):\($0.line): \($0.message)") }
        let steps = check(script, problems: &problems)
        guard problems.isEmpty, let steps else {
            for problem in problems.sorted(by: { $0.line < $1.line }) { Console.fail(problem.text) }
            return .failure(ExitStatus(ExitCode.usage))
        }
        var items: [QueueItem] = []
        for case .load(let plan) in steps.map(\.step) {
            items = plan.mode == .replace ? plan.items : items + plan.items
        }
        return .success(items)
    }

    /// An exit status, as an error.
    struct ExitStatus: Error {
        let status: Int32
        init(_ status: Int32) { self.status = status }
    }

    /// Every reference resolved, and `say` checked for a backend; nil (after saying why, line by
    /// line) when any line cannot run.
    private func check(_ script: Script, problems found: inout [(line: Int, text: String)]) -> [(line: Int, step: Step)]? {
        let resolver = QueueResolver(backend: options.backend)
        let directory = QueueResolver.directory(of: path)
        var steps: [(line: Int, step: Step)] = []
        var problems: [(line: Int, text: String)] = []
        var backendChecked = false
        func items(_ reference: String, line: Int) -> [QueueItem] {
            switch resolver.items(reference, relativeTo: directory) {
            case .success(let items): return items
            case .failure(let problem):
                problems.append((line, "\(name):\(line): \(problem.message)"))
                return []
            }
        }
        for line in script.lines {
            let number = line.number
            switch line.command {
            case .wait(let what): steps.append((number, .wait(what)))
            case .echo(let text): steps.append((number, .echo(text)))
            case .status: steps.append((number, .status))
            case .requests(let requests):
                var plan: LoadPlan?
                for request in requests {
                    switch request {
                    case .load(let reference, let mode):
                        let resolved = items(reference, line: number)
                        if plan == nil {
                            let replacing = mode == .replace
                            plan = LoadPlan([], mode: mode, loop: replacing ? (options.loop ? .queue : .off) : nil,
                                            shuffle: replacing && options.shuffle)
                        }
                        plan?.items += resolved
                    case .voice(let reference):
                        if let note = items("voice:" + reference, line: number).first { steps.append((number, .voice(note))) }
                    case .perform(.say) where !backendChecked:
                        backendChecked = true
                        if let problem = sayProblem() { problems.append((number, "\(name):\(number): \(problem)")) }
                        steps.append((number, .request(request)))
                    default:
                        steps.append((number, .request(request)))
                    }
                }
                if let plan { steps.append((number, .load(plan))) }
            }
        }
        found += problems
        return problems.isEmpty ? steps : nil
    }

    /// Why `say` cannot run here: no backend, or one that cannot be reached.
    private func sayProblem() -> String? {
        do {
            _ = try BackendSession(options.backend)
            return nil
        } catch .notConfigured {
            return "say needs Alicia's backend, and none is configured"
        } catch {
            return "say: \(error.message)"
        }
    }
}
