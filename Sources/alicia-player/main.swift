#if canImport(Glibc)
import Glibc
#endif
import AliciaPlayerCLI

exit(CommandLineTool.run(CommandLine.arguments))
