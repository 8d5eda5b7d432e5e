import AliciaTerminal
import AliciaSession
import AliciaBackend
import AliciaLibrary

/// The Studio's keys as data (as mpv's input.conf and cmus's `bind`): each key is bound to a
/// command line, the Studio's own (`StudioAction`) or one of the session's grammar, and the
/// bindings are also the help the overlay and `help keys` show. The listener rebinds a key with a
/// `bind = KEY COMMAND…` line in the configuration file (`bind = x seek 30`; `ignore` unbinds it).
package struct StudioKeys: Equatable {
    package struct Binding: Equatable {
        package var key: Key
        package var command: String
        /// The help row a default binding is shown in (`Row.id`); nil for the listener's own.
        package var row: String?
    }

    /// A row of the help overlay: what the keys of its groups do, in words, the groups apart by " / ".
    struct Row {
        var groups: [(id: String, what: String)]
    }

    package private(set) var bindings: [Binding]

    /// The command line `key` is bound to.
    package func command(for key: Key) -> String? {
        bindings.first { $0.key == key }?.command
    }

    /// Binds `key` to `command` in place of what it had (`ignore`: to nothing).
    package mutating func bind(_ key: Key, _ command: String) {
        bindings.removeAll { $0.key == key }
        if command != "ignore" { bindings.append(Binding(key: key, command: command, row: nil)) }
    }

    /// The defaults with the configuration file's `bind` lines over them; a bad line is a warning
    /// (`FILE:LINE: why`) and changes nothing.
    package static func configured(warn: (String) -> Void) -> StudioKeys {
        let (path, entries) = ConfigurationLoader.fileEntries(["bind"], environment: BackendSession.environment())
        var keys = StudioKeys.defaults
        for entry in entries {
            switch Self.parseBind(entry.value) {
            case .success(let (key, command)): keys.bind(key, command)
            case .failure(let problem): warn("\(path):\(entry.line): bind \(problem.message)")
            }
        }
        return keys
    }

    /// `KEY COMMAND…` of a `bind` line.
    package static func parseBind(_ value: String) -> Result<(Key, String), BindProblem> {
        let name = String(value.prefix { $0 != " " && $0 != "\t" })
        let command = String(value.dropFirst(name.count)).trimmingWhitespace()
        guard !name.isEmpty, let key = Key(name: name) else {
            return .failure(BindProblem(message: "'\(name.prefix(40))' is not a key (x, X, SPACE, LEFT, PGUP, Ctrl+u, Alt+x, …)"))
        }
        guard !command.isEmpty else { return .failure(BindProblem(message: "\(name) needs a command (bind = \(name) seek 30)")) }
        if command != "ignore", let problem = StudioAction.problem(with: command) {
            return .failure(BindProblem(message: "\(name): \(problem)"))
        }
        return .success((key, command))
    }

    package struct BindProblem: Error, Equatable {
        package let message: String
    }

    /// The overlay's rows: each of the listener's own bindings with its command line (first: they
    /// are the ones not known by heart yet), then the default rows with the keys each group has now.
    package var helpRows: [(keys: String, what: String)] {
        var rows: [(keys: String, what: String)] = bindings.filter { $0.row == nil }.map { ($0.key.label, $0.command) }
        for row in Self.rows {
            let present = row.groups.compactMap { group -> (keys: String, what: String)? in
                let keys = bindings.filter { $0.row == group.id }.map(\.key)
                return keys.isEmpty ? nil : (Self.label(keys), group.what)
            }
            guard !present.isEmpty else { continue }
            rows.append((present.map(\.keys).joined(separator: " / "), present.map(\.what).joined(separator: " / ")))
        }
        return rows
    }

    /// `help keys`: a line a binding, `KEY  COMMAND`, the key as the configuration writes it.
    package var listing: [String] {
        let width = bindings.compactMap { $0.key.name?.count }.max() ?? 4
        return bindings.compactMap { binding in
            guard let name = binding.key.name else { return nil }
            return name.padding(to: width) + "  " + binding.command
        }
    }

    /// Keys as the help writes them: `0 – 9` for a run of digits, else each by its label, a space apart.
    static func label(_ keys: [Key]) -> String {
        let digits = keys.compactMap { key -> Int? in
            if case .character(let c) = key, c.isASCII, let digit = c.wholeNumberValue { return digit }
            return nil
        }
        if digits.count == keys.count, digits.count > 2, let first = digits.first, let last = digits.last,
           first < last, digits == Array(first...last) {
            return "\(first) – \(last)"
        }
        return keys.map(\.label).joined(separator: " ")
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
