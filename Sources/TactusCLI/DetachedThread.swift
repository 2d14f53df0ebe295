#if canImport(Glibc)
import Glibc
#endif
import TactusCore

/// A thread that runs one job and ends, joined by nobody (`pthread_detach`): the
/// reading of a preset's samples (`SampleFilesInUse.read`), whose result comes
/// back through its `SampleRead`, so there is nothing to wait for.
enum DetachedThread {
    private final class Job {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `run` on a new thread with Tactus's small stack (`ThreadStack`); false if none could be started.
    static func start(_ run: @escaping @Sendable () -> Void) -> Bool {
        let job = Unmanaged.passRetained(Job(run)).toOpaque()
        var attributes = ThreadStack.attributes()
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        defer { pthread_attr_destroy(&attributes) }
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, job)
        if result != 0 { Unmanaged<Job>.fromOpaque(job).release() }
        return result == 0
    }
}
