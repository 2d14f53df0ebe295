#if canImport(Glibc)
import Glibc
#endif
import CJackShims
import TactusCore

/// How the JACK client keeps the process callback's memory resident without
/// paying for what nobody touches (docs/DESIGN.md §2.2).
///
/// `mlockall(MCL_CURRENT | MCL_FUTURE)` alone makes every page of every mapping
/// resident: each thread's whole stack reservation (jack2's threads have 512 kB,
/// Tactus's own 256 kB) and every untouched page of every library's data, about
/// 2 MB of anonymous memory for stacks that use a few pages. With `MCL_ONFAULT`
/// (Linux 4.4) a page is locked when first touched instead. So nothing the
/// callback touches is touched first by the callback (a page fault on the
/// real-time thread): the engine's buffers are written when allocated
/// (`Prefault`), the code and data a cycle runs through by the dry cycle, the
/// process thread's stack in JACK's thread-init callback, the program's own
/// writable data here (`populateProgramData`), and the files mapped read-only
/// or shared (code, JACK's shared memory) are populated here, as `MCL_CURRENT`
/// did: they cost no anonymous memory.
enum MemoryLock {
    /// `mlockall` once start-up is over, so no page of the engine is paged out
    /// under the real-time thread, on fault (`lockOnFault`). Says so when the
    /// memlock limit forbids it, and carries on.
    static func lockAfterStartUp(log: (String) -> Void) {
        // Give back the heap that start-up used and freed (preset files, option
        // parsing) first: once locked, every page of it would stay resident.
        _ = tactus_malloc_trim()
        if let error = lockOnFault() {
            log("cannot lock memory (mlockall: \(String(cString: strerror(error)))): carrying on, but a page fault can cause an xrun; raise `ulimit -l` (the audio group's memlock limit)")
            return
        }
        if let error = populateProgramData() {
            log("cannot populate the program's data (madvise: \(String(cString: strerror(error)))): carrying on, but a page fault can cause an xrun")
        }
    }

    /// Makes the program's own writable data (.data and .bss of the executable,
    /// about 200 kB) and the Swift runtime's .bss (about 170 kB) resident and
    /// locked; the errno when the kernel cannot (MADV_POPULATE_WRITE is Linux
    /// 5.14). The dry cycle runs a stopped engine, so what only a rolling engine
    /// touches there is touched first by the callback: in a debug build (the
    /// one the real-time proof runs) the cycle calls generic code unspecialized
    /// (`!=` on an enum is Equatable's, a conversion `Int64(x)` BinaryInteger's),
    /// and each first call writes a lazy cache in the program's .bss (a protocol
    /// witness table's, through swift_getWitnessTable) and the witness table
    /// the runtime instantiates for it, 16 to 300 bytes taken from the runtime's
    /// metadata pool (a 64 kB bump allocator in libswiftCore's .bss; no malloc,
    /// no lock). Either is a page fault whenever nothing wrote that page
    /// before, which depends on nothing but where the linker put the cache, or
    /// how many bytes other threads took from the pool first: the 64 bytes
    /// JACK's latency callback takes (`tactusLatency`'s `==` on a C enum) moved
    /// a cycle's witness table across a page boundary (docs/DESIGN.md §2.2). A
    /// release build specializes those calls away (§2.2); the pages cost the
    /// same either way.
    static func populateProgramData() -> Int32? {
        let result = tactus_populate_program_data()
        return result < 0 ? Int32(-result) : nil
    }

    /// Locks on fault; the errno when not permitted.
    static func lockOnFault() -> Int32? {
        mlockall(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT) == 0 ? nil : errno
    }

    /// Makes every page of each file mapping that is not private and writable
    /// resident and locked (`mlock` populates): the libraries' code and
    /// constants, JACK's shared memory (mapped again after a new server). A
    /// private writable mapping (a library's data) would become anonymous
    /// memory page by page; what of it a cycle uses the dry cycle touched.
    static func populateFileMappings() {
        guard let maps = try? FileSystem.read("/proc/self/maps", limit: 1 << 22) else { return }
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
            // start-end perms offset dev inode path
            guard fields.count >= 6, fields[5].first == UInt8(ascii: "/") else { continue }
            let perms = Array(fields[1])
            guard perms.count == 4, perms[0] == UInt8(ascii: "r"), !(perms[1] == UInt8(ascii: "w") && perms[3] == UInt8(ascii: "p")) else { continue }
            let range = fields[0].split(separator: UInt8(ascii: "-"))
            guard range.count == 2, let start = hex(range[0]), let end = hex(range[1]), end > start else { continue }
            _ = mlock(UnsafeRawPointer(bitPattern: start), Int(end - start))
        }
    }

    private static func hex(_ digits: ArraySlice<UInt8>) -> UInt? {
        UInt(String(decoding: digits, as: UTF8.self), radix: 16)
    }
}
