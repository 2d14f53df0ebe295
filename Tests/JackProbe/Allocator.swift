#if canImport(Glibc)
import Glibc
#endif
import CJack
import TactusJACK

/// The interposer's positive control: a process callback that does exactly what
/// Tactus' must never do (malloc, free, lock a mutex), and posts a semaphore as
/// Tactus' may (counted apart, not a violation). Run under the interposer, its
/// counts must come out above zero, or the interposer proves nothing.
func allocatingProcess(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    let mutex = arg!.assumingMemoryBound(to: pthread_mutex_t.self)
    let p = malloc(64)
    free(p)
    pthread_mutex_lock(mutex)
    pthread_mutex_unlock(mutex)
    sem_post(allocatorSemaphore)
    return 0
}

/// Posted every cycle by `allocatingProcess`; nobody waits on it.
nonisolated(unsafe) let allocatorSemaphore: UnsafeMutablePointer<sem_t> = {
    let s = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    sem_init(s, 0, 0)
    return s
}()

enum Allocator {
    static func main(_ args: inout Arguments) -> Int32 {
        let name = args.value("--name", "-n") ?? "allocator"
        let server = args.value("-s", "--server")
        let seconds = Double(args.value("--seconds") ?? "1") ?? 1
        let client = ProbeClient.open(name, server: server)
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        _ = allocatorSemaphore
        jack_set_process_callback(client, allocatingProcess, UnsafeMutableRawPointer(mutex))
        guard jack_activate(client) == 0 else { fail("cannot activate") }
        usleep(UInt32(seconds * 1_000_000))
        jack_deactivate(client)
        jack_client_close(client)
        return 0
    }
}
