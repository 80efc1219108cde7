#if canImport(Glibc)
import Glibc
#endif

/// A larger per-thread cache in glibc's malloc for the commands that run many seeds.
///
/// A seed allocates about 5,000 blocks and frees them all when its world is torn down, and a
/// request or answer frees its records in bursts. glibc keeps 7 freed blocks of each size
/// per thread (`tcache_count`); past those, a free and the next malloc of that size take
/// the slower paths through the arena's bins. With 127 kept, `synclab explore` runs about
/// 3% faster (docs/BENCH.md, "The allocator"). glibc reads the setting only from the
/// environment when a process starts (there is no `mallopt` for it), so `explore` and
/// `bench` set `GLIBC_TUNABLES` and execute themselves again, before they read or print
/// anything. Nothing a run computes depends on the allocator: traces are byte-identical
/// either way.
///
/// Left alone when `GLIBC_TUNABLES` is set already (to anything, even empty: that is the
/// way to opt out), on other systems, and when the re-execution fails (the process then
/// goes on as it is).
enum MallocTuning {
    static let variable = "GLIBC_TUNABLES"
    /// 127: the largest count every glibc with a thread cache accepts (2.26 to 2.29 refuse
    /// more, and ignore an out-of-range setting).
    static let setting = "glibc.malloc.tcache_count=127"

    /// Re-executes this process with `setting` unless the environment names tunables; returns
    /// only when it did not re-execute.
    static func reexecuteIfUntuned() {
        #if os(Linux) && canImport(Glibc)
        guard getenv(variable) == nil, setenv(variable, setting, 0) == 0 else { return }
        var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
        argv.append(nil)
        execv("/proc/self/exe", &argv)
        // Not re-executed (no /proc, or exec refused): go on untuned, environment as it was.
        for pointer in argv { free(pointer) }
        unsetenv(variable)
        #endif
    }

    /// What `synclab bench` reports about the allocator it measured with.
    static var description: String {
        #if os(Linux) && canImport(Glibc)
        guard let value = getenv(variable) else { return "glibc malloc, default settings" }
        let text = String(cString: value)
        return text.isEmpty ? "glibc malloc, default settings (GLIBC_TUNABLES is empty)"
            : "glibc malloc, GLIBC_TUNABLES=\(text)"
        #else
        return "the system's malloc"
        #endif
    }
}
