import AliciaDemoBackend
import AliciaTestSupport
import Foundation
import Testing

/// The shell completions as a listener meets them: Tab typed into a real interactive bash, zsh
/// and fish in a pseudo-terminal (tmux), with the completion cache the last `tracks` and
/// `playlists` wrote. Calling the completion function directly hides what the shell does to the
/// word first (bash breaks `playlist:Dr` at the colon).
@Suite("Completions typed in interactive shells", .serialized)
struct CompletionTypingTests {
    /// What is typed, and what the line must read after Tab.
    static let cases: [(typed: String, completed: String)] = [
        ("alicia-player play playlist:Dr", "alicia-player play playlist:Drive\\ home"),
        // Labels in any case.
        ("alicia-player play s1e03", "alicia-player play S1E03"),
        // A title by a word that is not its first.
        ("alicia-player play tid", "alicia-player play Slow\\ Tide"),
        ("alicia-player download playlist:dri", "alicia-player download playlist:Drive\\ home"),
        // Properties from the property table after ctl get, set and watch.
        ("alicia-player ctl get time-p", "alicia-player ctl get time-pos"),
        ("alicia-player ctl set alicia-skip-s", "alicia-player ctl set alicia-skip-silence"),
        ("alicia-player ctl watch playlist-co", "alicia-player ctl watch playlist-count"),
    ]

    /// A completion cache written by the real `tracks` and `playlists` against the demo backend.
    static func completionCache(in directory: TemporaryDirectory) async throws -> String {
        let backend = try DemoBackend(token: "typing-token")
        defer { backend.stop() }
        let cache = directory.file("cache")
        for command in ["tracks", "playlists"] {
            let result = try await Playback.run([command], environment: [
                "ALICIA_BASE_URL": backend.baseURL, "ALICIA_TOKEN": backend.token, "XDG_CACHE_HOME": cache,
                "XDG_CONFIG_HOME": directory.file("config"),
            ])
            #expect(result.status == 0, "\(result)")
        }
        return cache
    }

    /// Types each case into the shell `command` runs and Tab, and reads the line back.
    static func type(shell command: String, rc: (name: String, text: String), directory: TemporaryDirectory,
                     cache: String) async throws {
        try StudioTests.requireTmux()
        _ = try directory.write(Array(rc.text.utf8), as: rc.name)
        let binary = URL(fileURLWithPath: try PlayerProcess.executablePath()).deletingLastPathComponent().path
        // fish loads a command's completions only once the command is on the PATH.
        let environment = [
            "PATH": binary + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": directory.path, "XDG_CACHE_HOME": cache, "XDG_CONFIG_HOME": directory.file("config"), "TERM": "xterm-256color",
        ]
        let tmux = try StudioTests.Tmux(command: "cd '\(directory.path)' && " + command, columns: 160, rows: 40, environment: environment)
        // An empty prompt on the last line: what follows is typed into it. (Ctrl-C before the shell
        // has started would end the script that runs it.)
        func prompt() async throws {
            try await tmux.waitFor("an empty prompt") { screen in
                screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                    .trimmingCharacters(in: .whitespaces) == "$"
            }
        }
        try await prompt()
        for (index, (typed, completed)) in cases.enumerated() {
            // The last case's line is cleared by editing keys (end of line, then kill it back to
            // the prompt), taken in order with what is typed after them. Ctrl-C is not: its SIGINT
            // is raised as the key arrives but taken when the shell next runs, and on a loaded
            // machine that came after the next case, or part of it, had been typed. A command
            // line of its own, run and answered by a new prompt, then shows the shell is at an
            // empty line.
            try tmux.keys("C-e", "C-u")
            let marker = "true # case \(index)"
            try tmux.run(["send-keys", "-t", "studio", "-l", marker])
            try tmux.keys("Enter")
            try await tmux.waitFor("'\(marker)' run") { screen in
                let lines = screen.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                guard let ran = lines.lastIndex(where: { $0.hasSuffix(marker) }) else { return false }
                return ran < lines.count - 1 && lines.last?.trimmingCharacters(in: .whitespaces) == "$"
            }
            try tmux.run(["send-keys", "-t", "studio", "-l", typed])
            try tmux.keys("Tab")
            do {
                try await tmux.waitFor("'\(typed)' completed to '\(completed)'", timeout: .seconds(60)) { screen in
                    screen.split(separator: "\n").contains { $0.hasSuffix(completed) || $0.hasSuffix(completed + " ") }
                }
            } catch {
                Issue.record("\(command): \(error)")
            }
        }
        try tmux.keys("C-c")
    }

    @Test("Tab in an interactive bash completes playlist:Dr, labels in any case, title words and ctl's properties")
    func bash() async throws {
        try TestEnvironment.require(FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion"),
                                    "bash-completion is not installed (scripts/test installs it)")
        let directory = try TemporaryDirectory(prefix: "typing-bash")
        defer { directory.remove() }
        let cache = try await Self.completionCache(in: directory)
        let rc = """
            source /usr/share/bash-completion/bash_completion
            source '\(DocumentationTests.root)/completions/alicia-player.bash'
            PS1='$ '
            """
        try await Self.type(shell: "bash --noprofile --rcfile '\(directory.file("bashrc"))' -i", rc: ("bashrc", rc), directory: directory, cache: cache)
    }

    @Test("Tab in an interactive zsh completes the same")
    func zsh() async throws {
        _ = try DocumentationTests.tool("zsh", "zsh")
        let directory = try TemporaryDirectory(prefix: "typing-zsh")
        defer { directory.remove() }
        let cache = try await Self.completionCache(in: directory)
        let rc = """
            fpath=('\(DocumentationTests.root)/completions' $fpath)
            autoload -Uz compinit && compinit -u -D
            PS1='$ '
            """
        try await Self.type(shell: "ZDOTDIR='\(directory.path)' zsh -i", rc: (".zshrc", rc), directory: directory, cache: cache)
    }

    @Test("Tab in an interactive fish completes the same")
    func fish() async throws {
        _ = try DocumentationTests.tool("fish", "fish")
        let directory = try TemporaryDirectory(prefix: "typing-fish")
        defer { directory.remove() }
        let cache = try await Self.completionCache(in: directory)
        try FileManager.default.createDirectory(atPath: directory.file("config/fish/completions"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.file("config/fish/completions/alicia-player.fish"),
                                                   withDestinationPath: DocumentationTests.root + "/completions/alicia-player.fish")
        let rc = """
            set -g fish_greeting
            function fish_prompt; echo '$ '; end
            """
        try await Self.type(shell: "fish -i -C 'source \(directory.file("fishrc"))'", rc: ("fishrc", rc), directory: directory, cache: cache)
    }
}
