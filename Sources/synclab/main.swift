#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncLabCLI

/// `synclab`: run, check and measure SyncLab scenarios, on the engines SyncLab ships.
exit(SyncLabCLI.main(Array(CommandLine.arguments.dropFirst())))
