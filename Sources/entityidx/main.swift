#if canImport(Glibc)
import Glibc
#endif
import EntityIndexCLI

exit(EntityIdx.main(Array(CommandLine.arguments.dropFirst())))
