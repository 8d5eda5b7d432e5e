#if canImport(Glibc)
import Glibc
#endif
import AliciaFuzzTargets

// A normal build: `alicia-fuzz TARGET FILE|DIR...` feeds each file (a crasher, a corpus) to TARGET
// once; `alicia-fuzz --list` names the targets. Built by `scripts/fuzz` (-sanitize=fuzzer,
// -DALICIA_FUZZ): libFuzzer takes the command line and drives the target `ALICIA_FUZZ_TARGET` names.
#if ALICIA_FUZZ
exit(FuzzEntry.runLibFuzzer())
#else
exit(FuzzReplay.run(Array(CommandLine.arguments.dropFirst())))
#endif
