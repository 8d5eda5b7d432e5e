#if canImport(Glibc)
import Glibc
#endif

/// `alicia-fuzz` without libFuzzer: files (or every file of directories) fed once each to a target.
package enum FuzzReplay {
    /// The exit status: 0 when every file went through, 2 for a usage error.
    package static func run(_ arguments: [String]) -> Int32 {
        if arguments == ["--list"] {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.about)") }
            return 0
        }
        guard let name = arguments.first, let target = FuzzTarget.named(name) else {
            let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
            complain("usage: alicia-fuzz TARGET FILE|DIR... (targets: \(names)) or alicia-fuzz --list")
            return 2
        }
        var count = 0
        for path in arguments.dropFirst() {
            let files = isDirectory(path) ? filesIn(path) : [path]
            for file in files {
                guard let bytes = contents(of: file) else {
                    complain("alicia-fuzz: cannot read \(file)")
                    return 1
                }
                target.run(bytes)
                count += 1
            }
        }
        print("\(target.name): \(count) inputs, no failure")
        return 0
    }

    /// One line on standard error.
    package static func complain(_ line: String) {
        var text = line + "\n"
        _ = text.withUTF8 { write(2, $0.baseAddress, $0.count) }
    }

    /// The regular files directly in `directory`, sorted, hidden ones (`.gitkeep`) left out.
    package static func filesIn(_ directory: String) -> [String] {
        names(in: directory).map { directory + "/" + $0 }.filter { !isDirectory($0) }
    }

    /// The directories directly in `directory`, sorted.
    package static func directoriesIn(_ directory: String) -> [String] {
        names(in: directory).filter { isDirectory(directory + "/" + $0) }
    }

    /// The names in `directory`, sorted, hidden ones left out.
    private static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A whole file; nil when it cannot be read. Corpus files are small (libFuzzer's -max_len).
    package static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[0..<n]
            if n < chunk.count { return ferror(file) == 0 ? bytes : nil }
        }
    }
}
