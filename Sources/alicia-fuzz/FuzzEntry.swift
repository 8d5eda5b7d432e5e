#if canImport(Glibc)
import Glibc
#endif
import AliciaFuzzTargets
#if ALICIA_FUZZ
import CLibFuzzer
#endif

/// The target libFuzzer drives, named by `ALICIA_FUZZ_TARGET` (libFuzzer owns the command line, and
/// the child processes it may start inherit the environment); `list` prints the names.
enum FuzzEntry {
    static let target: FuzzTarget = {
        let name = getenv("ALICIA_FUZZ_TARGET").map { String(cString: $0) } ?? ""
        if name == "list" {
            for target in FuzzTarget.all { print(target.name) }
            exit(0)
        }
        guard let target = FuzzTarget.named(name) else {
            let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
            FuzzReplay.complain("alicia-fuzz: set ALICIA_FUZZ_TARGET to one of: \(names)")
            exit(2)
        }
        return target
    }()

    #if ALICIA_FUZZ
    /// Hands the command line to libFuzzer's driver, once the target is settled. Wraps `LLVMFuzzerRunDriver`.
    static func runLibFuzzer() -> Int32 {
        _ = target
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzerTestOneInput(data, size) }
    }
    #endif
}

/// One input, which the target must survive. Also libFuzzer's named entry: its own main (linked
/// in, though SwiftPM's `main` wins) refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzEntry.target.run(bytes)
    return 0
}
