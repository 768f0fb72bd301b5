import EntityIndexCLI

#if canImport(Glibc)
    import Glibc
#endif

exit(EntityIdx.main(Array(CommandLine.arguments.dropFirst())))
