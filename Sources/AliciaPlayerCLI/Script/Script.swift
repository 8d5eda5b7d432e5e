import AliciaAudio
import AliciaSession
import AliciaLocks
import AliciaLibrary
import AliciaHost

/// A playback script: one command a line, the vocabulary the control socket shares. Pure: `parse`
/// checks every line (and says what is wrong with each, by line number) before anything runs.
package struct Script: Equatable {
    package enum Wait: Equatable {
        /// `wait`: until the item playing now ends.
        case item
        /// `wait end`: until the queue ends.
        case queue
        /// `wait voice`: until no voice note plays or waits.
        case voice
        /// `wait 5s`, `wait 1.5`, `wait 200ms`, `wait 2m`.
        case seconds(Double)
    }

    package enum Command: Equatable {
        case play([String])
        case append([String])
        case next, previous, pause, resume, toggle
        /// `+30`, `-15`: from where playback stands; `1:20`, `80`: from the start; `50%`: a share.
        case seek(TransportCommand.SeekTarget)
        /// `chapter +1`, `chapter -1`: chapters on or back; `chapter 2`: the third chapter's start.
        case chapter(TransportCommand.ChapterChange)
        /// Percent, 0–150 (`+5`, `-5`: from where it is).
        case volume(TransportCommand.Change)
        /// `mute`, `mute on`, `mute off`.
        case mute(TransportCommand.Switch)
        /// `1.5` (`+0.25`, `-0.25`: from where it is).
        case speed(TransportCommand.Change)
        case voice(String)
        case say(String)
        case wait(Wait)
        case echo(String)
        case status
        case quit
    }

    package struct Line: Equatable {
        package var number: Int
        package var command: Command
    }

    package var lines: [Line] = []
    /// `(line, what is wrong)`.
    package var problems: [(line: Int, message: String)] = []

    package static func == (a: Script, b: Script) -> Bool {
        a.lines == b.lines && a.problems.map { "\($0.line):\($0.message)" } == b.problems.map { "\($0.line):\($0.message)" }
    }

    /// The longest line a script may have: past it, the line is refused unread.
    static let maximumLineBytes = 64 * 1024
    package static let maximumLines = 100_000

    static let vocabulary = "play, append, next, previous, pause, resume, toggle, seek, chapter, volume, mute, speed, voice, speak, say, wait, echo, status, quit"

    package static func parse(_ bytes: [UInt8]) -> Script {
        var script = Script()
        var number = 0
        var start = 0
        while start < bytes.count {
            number += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            defer { start = end + 1 }
            if number > maximumLines {
                script.problems.append((number, "more than \(maximumLines) lines"))
                break
            }
            if end - start > maximumLineBytes {
                script.problems.append((number, "the line is longer than \(maximumLineBytes / 1024) KiB"))
                continue
            }
            guard let text = String(validating: bytes[start..<end], as: UTF8.self) else {
                script.problems.append((number, "the line is not UTF-8 text"))
                continue
            }
            let line = text.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            switch command(line) {
            case .success(let command): script.lines.append(Line(number: number, command: command))
            case .failure(let problem): script.problems.append((number, problem.message))
            }
        }
        return script
    }

    /// One command line (no comment, trimmed).
    static func command(_ line: String) -> Result<Command, UsageError> {
        let name = String(line.prefix { $0 != " " && $0 != "\t" })
        let rest = String(line.dropFirst(name.count)).trimmingWhitespace()
        let words: [String]
        switch split(rest) {
        case .success(let split): words = split
        case .failure(let problem): return .failure(problem)
        }
        func none(_ command: Command) -> Result<Command, UsageError> {
            words.isEmpty ? .success(command) : .failure(UsageError("\(name) takes no argument, got '\(words[0])'"))
        }
        func one(_ what: String) -> Result<String, UsageError> {
            guard let first = words.first else { return .failure(UsageError("\(name) needs \(what)")) }
            guard words.count == 1 else { return .failure(UsageError("\(name) takes one \(what), got '\(words[1])' too")) }
            return .success(first)
        }
        switch name {
        case "play", "append":
            guard !words.isEmpty else { return .failure(UsageError("\(name) needs something to play (a URL, a path, an episode)")) }
            return .success(name == "play" ? .play(words) : .append(words))
        case "next": return none(.next)
        case "previous", "prev": return none(.previous)
        case "pause": return none(.pause)
        case "resume", "unpause": return none(.resume)
        case "toggle": return none(.toggle)
        case "status": return none(.status)
        case "quit": return none(.quit)
        case "seek", "volume", "mute", "speed": return leveled(name, words, one)
        case "unmute": return none(.mute(.off))
        case "chapter":
            return one("chapter (+1, -1, or an index from 0)").flatMap { text in
                guard let steps = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text) else {
                    return .failure(UsageError("chapter '\(text)' is not +1, -1 or an index from 0"))
                }
                return .success(.chapter(text.hasPrefix("+") || text.hasPrefix("-") ? .by(steps) : .to(steps)))
            }
        case "voice":
            return one("voice note").map { .voice($0) }
        case "speak":
            guard !rest.isEmpty else { return .failure(UsageError("speak needs a text to read aloud")) }
            return .success(.play([QueueResolver.speakPrefix + rest]))
        case "say":
            guard !rest.isEmpty else { return .failure(UsageError("say needs something to say to Alicia")) }
            return .success(.say(rest))
        case "echo":
            return .success(.echo(rest))
        case "wait":
            if words.isEmpty { return .success(.wait(.item)) }
            return one("thing to wait for (end, voice, or a time such as 5s)").flatMap { text in
                switch text {
                case "end": return .success(.wait(.queue))
                case "voice": return .success(.wait(.voice))
                default:
                    guard let seconds = duration(text) else {
                        return .failure(UsageError("wait '\(text)' is not end, voice, or a time such as 5s, 200ms, 2m"))
                    }
                    return .success(.wait(.seconds(seconds)))
                }
            }
        default:
            return .failure(UsageError("unknown command '\(name)' (the commands: \(vocabulary))"))
        }
    }

    /// `seek`, `volume`, `mute` and `speed`: their value in the forms `ctl` takes too.
    private static func leveled(_ name: String, _ words: [String],
                                _ one: (String) -> Result<String, UsageError>) -> Result<Command, UsageError> {
        if name == "mute" && words.isEmpty { return .success(.mute(.on)) }
        let wanted = ["seek": "position (+30, -15, 1:20 or 50%)", "volume": "level (0 to 150, or +5, -5)",
                      "mute": "on, off or toggle", "speed": "speed (0.5 to 3, or +0.25, -0.25)"][name] ?? "value"
        return one(wanted).flatMap { text in
            let command: Command?
            switch name {
            case "seek": command = TimeSpec.seekTarget(text).map { .seek($0) }
            case "volume": command = LevelText.volume(text).map { .volume($0) }
            case "mute": command = LevelText.mute(text).map { .mute($0) }
            default: command = LevelText.speed(text).map { .speed($0) }
            }
            guard let command else {
                let expected = ["seek": "+30, -15, 1:20 or 50%", "volume": "a level from 0 to 150 (or +5, -5)",
                                "mute": "on, off or toggle", "speed": "a speed from 0.5 to 3 (or +0.25, -0.25)"][name] ?? ""
                return .failure(UsageError("\(name) '\(text)' is not \(expected)"))
            }
            return .success(command)
        }
    }

    /// `5s`, `5`, `200ms`, `2m`, `1:30`: seconds, at most a day.
    static func duration(_ text: String) -> Double? {
        var number = text
        var scale = 1.0
        if text.hasSuffix("ms") {
            number = String(text.dropLast(2))
            scale = 0.001
        } else if text.hasSuffix("s") {
            number = String(text.dropLast())
        } else if text.hasSuffix("m") {
            number = String(text.dropLast())
            scale = 60
        } else if case .seconds(let seconds)? = TimeSpec.parse(text), text.contains(":") {
            return seconds
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 86_400 else { return nil }
        return value * scale
    }

    /// Words separated by spaces; `"two words"` is one.
    static func split(_ text: String) -> Result<[String], UsageError> {
        var words: [String] = []
        var current = ""
        var quoted = false
        var inWord = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if (character == " " || character == "\t") && !quoted {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quoted { return .failure(UsageError("a quote is not closed")) }
        if inWord { words.append(current) }
        return .success(words)
    }
}
