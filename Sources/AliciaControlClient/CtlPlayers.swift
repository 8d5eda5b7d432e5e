#if canImport(Glibc)
import Glibc
#endif
import AliciaControl
import AliciaJSON
import AliciaLocks

/// The players running: one socket each in `ControlSocket.directory()` (the default one and those
/// of `--ipc-name`). `ctl list` prints them; `ctl --player NAME|PID` picks one.
enum CtlPlayers {
    struct Player {
        var name: String
        var path: String
        var pid: Int?
        var state: String?
        var title: String?
    }

    /// Every socket that answers, with what its player says of itself (a socket nobody answers
    /// on, left by a killed player, is not listed).
    static func running() -> [Player] {
        ControlSocket.names().compactMap { name in
            let path = ControlSocket.path(named: name)
            guard case .success(let fd) = ControlSocket.connect(to: path) else { return nil }
            defer { close(fd) }
            let connection = LineConnection(fd)
            func get(_ property: String, _ id: Int64) -> JSONValue? {
                connection.request([.string("get_property"), .string(property)], id: id)?["data"]
            }
            return Player(name: name, path: path, pid: get("pid", 1)?.numberValue.map { Int($0) },
                          state: get("alicia-state", 2)?.stringValue, title: get("media-title", 3)?.stringValue)
        }
    }

    /// The socket of `--player NAME|PID`: the name's, or the one whose player has that PID; nil
    /// (after saying so) when no player has that PID.
    static func path(of player: String) -> String? {
        guard player.allSatisfy(\.isNumber), let pid = Int(player) else { return ControlSocket.path(named: player) }
        if let found = running().first(where: { $0.pid == pid }) { return found.path }
        Console.fail("no player with PID \(pid) has a socket in \(ControlSocket.directory()) (ctl list shows the players)")
        return nil
    }

    /// `ctl list`: `NAME PID STATE TITLE` a line (tab-separated), or an object a line with --json;
    /// exit 3 when none runs.
    static func list(json: Bool) -> Int32 {
        let players = running()
        guard !players.isEmpty else {
            Console.fail("no player is running (no socket answers in \(ControlSocket.directory()))")
            return CtlCommand.notListening
        }
        for player in players {
            if json {
                let object = JSONValue.object([.init("name", .string(player.name)), .init("pid", player.pid.map { .number(Double($0)) } ?? .null),
                                               .init("state", player.state.map(JSONValue.string) ?? .null),
                                               .init("title", player.title.map(JSONValue.string) ?? .null), .init("socket", .string(player.path))])
                Console.out(String(decoding: IPCLines.text(object), as: UTF8.self) + "\n")
            } else {
                let fields = [player.name, player.pid.map(String.init) ?? "-", player.state ?? "-", player.title ?? "-"]
                Console.out(fields.joined(separator: "\t") + "\n")
            }
        }
        return ExitCode.success
    }
}

extension CtlCommand {
    /// The sockets of the players running (those that answer), for a command sent to whichever runs.
    package static func runningSockets() -> [String] {
        CtlPlayers.running().map(\.path)
    }
}
