import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// The man page, the README and the shell completions against the program's own usage texts:
/// `--help` and `help COMMAND` are the one list of commands and options, so an option added there
/// fails here until the man page, the README and the completions have it too.
@Suite("Documentation and completions")
struct DocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    static func tool(_ name: String, _ package: String) throws -> String {
        do {
            return try ChildProcess.resolve(name)
        } catch {
            throw HarnessError("\(name) is not installed (scripts/test installs \(package))")
        }
    }

    /// The commands `--help` lists under "Commands:".
    static func commands() async throws -> [String] {
        let help = try await Playback.run(["--help"], timeout: .seconds(10)).stdout
        guard let section = help.components(separatedBy: "Commands:\n").dropFirst().first else {
            throw HarnessError("--help has no Commands: section")
        }
        var names: [String] = []
        for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            if line.hasPrefix("  "), !line.hasPrefix("   "), let name = line.split(separator: " ").first { names.append(String(name)) }
        }
        return names
    }

    /// The options a usage text names: `--word`, `-h`, `-V`.
    static func options(in usage: String) -> Set<String> {
        var found: Set<String> = []
        let pattern = try! NSRegularExpression(pattern: "(?<![A-Za-z0-9-])(--[a-z][a-z-]*[a-z]|-[hV])(?![A-Za-z0-9-])")
        for match in pattern.matches(in: usage, range: NSRange(usage.startIndex..., in: usage)) {
            found.insert(String(usage[Range(match.range(at: 1), in: usage)!]))
        }
        return found
    }

    static func usage(_ command: String?) async throws -> String {
        let result = try await Playback.run(command.map { ["help", $0] } ?? ["--help"], timeout: .seconds(10))
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    static func manPage() async throws -> (roff: String, rendered: String, warnings: String) {
        let scdoc = try tool("scdoc", "scdoc")
        let man = try tool("man", "man-db")
        let directory = try TemporaryDirectory(prefix: "man")
        defer { directory.remove() }
        let page = directory.file("alicia-player.1")
        let generated = try await ChildProcess.run("/bin/sh", ["-c", "\"$0\" < \"$1\" > \"$2\"", scdoc, root + "/doc/alicia-player.1.scd", page])
        #expect(generated.status == 0, "scdoc: \(generated.stderrText)")
        let rendered = try await ChildProcess.run(man, ["--warnings", "-E", "UTF-8", "-l", page], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        return (try String(contentsOfFile: page, encoding: .utf8), rendered.stdoutText, rendered.stderrText)
    }

    @Test("the man page renders without warnings and has its sections")
    func manPageRenders() async throws {
        let page = try await Self.manPage()
        #expect(page.warnings.isEmpty, "man --warnings: \(page.warnings)")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "KEYS", "CONFIGURATION", "FILES", "ENVIRONMENT",
                        "EXIT STATUS", "EXAMPLES"] {
            #expect(page.rendered.contains("\n" + section + "\n"), "no \(section) section")
        }
        for file in ["~/.config/alicia/config", "~/.local/state/alicia-player", "~/.cache/alicia-player"] {
            #expect(page.rendered.contains(file), "FILES lacks \(file)")
        }
    }

    @Test("every command and option of the usage texts is in the man page, the README and the completions")
    func everyOptionIsDocumented() async throws {
        let commands = try await Self.commands()
        #expect(commands.contains("play") && commands.contains("config"), "\(commands)")
        let page = try await Self.manPage()
        let readme = try Self.text("README.md")
        let completions = try ["completions/alicia-player.bash", "completions/_alicia-player", "completions/alicia-player.fish"]
            .map { ($0, try Self.text($0)) }
        var all: Set<String> = Self.options(in: try await Self.usage(nil))
        for command in commands {
            all.formUnion(Self.options(in: try await Self.usage(command)))
            // Bools first: a failed `contains` would print the whole document.
            let inManPage = page.rendered.contains(command), inReadme = readme.contains("alicia-player \(command)") || readme.contains("alicia-player [\(command)]")
            #expect(inManPage, "the man page lacks the command \(command)")
            #expect(inReadme, "the README lacks the command \(command)")
            for (name, script) in completions {
                let offered = script.contains(command)
                #expect(offered, "\(name) lacks the command \(command)")
            }
        }
        #expect(all.contains("--start") && all.contains("--path"), "\(all.sorted())")
        for option in all.sorted() {
            let inManPage = page.rendered.contains(option), inReadme = readme.contains(option)
            #expect(inManPage, "the man page lacks \(option)")
            #expect(inReadme, "the README lacks \(option)")
            // fish names options without their dashes: `-l start`, `-s h`.
            let long = option.hasPrefix("--") ? String(option.dropFirst(2)) : String(option.dropFirst())
            for (name, script) in completions {
                let offered = script.contains(option) || script.contains("-l \(long) ") || script.contains("-s \(long) ")
                #expect(offered, "\(name) lacks \(option)")
            }
        }
    }

    /// What bash's completion function offers for `words` (the last one being completed), with
    /// the completion cache in `cache`.
    static func bashCompletions(_ words: [String], cache: String) async throws -> [String] {
        let bash = try tool("bash", "bash")
        try TestEnvironment.require(FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion"),
                                    "bash-completion is not installed (scripts/test installs it)")
        let script = """
            source /usr/share/bash-completion/bash_completion
            source "$1"
            complete -p alicia-player || exit 3
            shift
            COMP_WORDS=("$@")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            _alicia_player alicia-player "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await ChildProcess.run(bash, ["-c", script, "bash", root + "/completions/alicia-player.bash"] + words,
                                                environment: ["XDG_CACHE_HOME": cache])
        #expect(result.status == 0, "bash: \(result.stderrText)")
        #expect(result.stdoutText.hasPrefix("complete -F _alicia_player alicia-player"), "\(result.stdoutText)")
        return result.stdoutText.split(separator: "\n").dropFirst().map(String.init)
    }

    @Test("completions offer commands, options, and labels from the cache the last tracks wrote")
    func completions() async throws {
        let backend = try DemoBackend(token: "completion-token")
        defer { backend.stop() }
        let state = try TemporaryDirectory(prefix: "completion")
        defer { state.remove() }
        let cache = state.file("cache")
        let tracks = try await Playback.run(["tracks"], environment: [
            "ALICIA_BASE_URL": backend.baseURL, "ALICIA_TOKEN": backend.token, "XDG_CACHE_HOME": cache,
            "XDG_CONFIG_HOME": state.file("config"),
        ])
        #expect(tracks.status == 0, "\(tracks)")
        let labels = try String(contentsOfFile: cache + "/alicia-player/completion/labels", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let label = try #require(labels.first, "tracks wrote no labels")
        let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: cache + "/alicia-player/completion")
        for file in cacheFiles {
            let text = try String(contentsOfFile: cache + "/alicia-player/completion/" + file, encoding: .utf8)
            #expect(!text.contains(backend.token), "\(file) holds the token")
        }

        #expect(try await Self.bashCompletions(["alicia-player", "pl"], cache: cache).contains("play"))
        #expect(Set(try await Self.bashCompletions(["alicia-player", "play", "--sta"], cache: cache)) == ["--stall-timeout", "--start"])
        let prefix = String(label.prefix(2))
        #expect(try await Self.bashCompletions(["alicia-player", "play", prefix], cache: cache).contains(label))
        #expect(try await Self.bashCompletions(["alicia-player", "play", "x.wav", "--voice-focus", "d"], cache: cache) == ["duck"])

        let fish = try Self.tool("fish", "fish")
        let fishScript = Self.root + "/completions/alicia-player.fish"
        #expect(try await ChildProcess.run(fish, ["-n", fishScript]).status == 0, "fish -n")
        for (line, expected) in [("alicia-player pl", "play"), ("alicia-player play --st", "--start"), ("alicia-player play \(prefix)", label)] {
            let result = try await ChildProcess.run(fish, ["-c", "source $argv[1]; complete -C \"$argv[2]\"", fishScript, line],
                                                    environment: ["XDG_CACHE_HOME": cache])
            let offered = result.stdoutText.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
            #expect(offered.contains(expected), "fish for '\(line)': \(offered)")
        }

        let zsh = try Self.tool("zsh", "zsh")
        let parsed = try await ChildProcess.run(zsh, ["-n", Self.root + "/completions/_alicia-player"])
        #expect(parsed.status == 0, "zsh -n: \(parsed.stderrText)")
    }

    @Test("scripts/install puts the binary, man page, completions and the watcher's user unit under a prefix; --uninstall removes exactly them")
    func installAndUninstall() async throws {
        let prefix = try TemporaryDirectory(prefix: "prefix")
        defer { prefix.remove() }
        let before = try FileManager.default.subpathsOfDirectory(atPath: prefix.path)
        let bash = try Self.tool("bash", "bash")
        let install = try await ChildProcess.run(bash, [Self.root + "/scripts/install", "--prefix", prefix.path,
                                                        "--binary", try PlayerProcess.executablePath()], timeout: .seconds(120))
        #expect(install.status == 0, "\(install.stderrText)")
        for file in ["bin/alicia-player", "share/man/man1/alicia-player.1", "share/bash-completion/completions/alicia-player",
                     "share/zsh/site-functions/_alicia-player", "share/fish/vendor_completions.d/alicia-player.fish",
                     "lib/systemd/user/alicia-player-watch.service"] {
            #expect(FileManager.default.fileExists(atPath: prefix.file(file)), "\(file) not installed")
        }
        // The unit as installed: ExecStart names the installed binary, and systemd finds nothing wrong.
        let unit = prefix.file("lib/systemd/user/alicia-player-watch.service")
        let text = (try? String(contentsOfFile: unit, encoding: .utf8)) ?? ""
        #expect(text.contains("ExecStart=\(prefix.path)/bin/alicia-player watch\n") && text.contains("PartOf=graphical-session.target")
                && text.contains("WantedBy=graphical-session.target"), "\(text)")
        let analyze = try Self.tool("systemd-analyze", "systemd")
        let verified = try await ChildProcess.run(analyze, ["verify", unit], timeout: .seconds(60))
        #expect(verified.status == 0 && verified.stderrText.isEmpty, "systemd-analyze verify: \(verified.stderrText)")
        let version = try await ChildProcess.run(prefix.file("bin/alicia-player"), ["--version"])
        #expect(version.stdoutText.hasPrefix("alicia-player "))
        let uninstall = try await ChildProcess.run(bash, [Self.root + "/scripts/install", "--uninstall", "--prefix", prefix.path])
        #expect(uninstall.status == 0, "\(uninstall.stderrText)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: prefix.path) == before)
    }
}
