/*
 * The real-time proof: an LD_PRELOAD interposer that counts, per function, the
 * allocator and lock calls made from inside a JACK process callback.
 *
 * How it knows it is inside the callback: it interposes jack_set_process_callback
 * itself, registers a trampoline in place of the client's callback, and the
 * trampoline sets a thread-local flag around the client's call. So it counts
 * exactly what the client's callback (and everything that callback calls: the
 * Swift runtime, libjack's MIDI and buffer functions) does, and nothing JACK's
 * own thread does between cycles. Counted: malloc, calloc, realloc, free,
 * posix_memalign, aligned_alloc, memalign, valloc; pthread_mutex_*, pthread_rwlock_*,
 * pthread_cond_*, pthread_spin_lock, pthread_once, sem_wait/timedwait/trywait/post.
 *
 * One call is allowed and counted apart: sem_post, with which the callback
 * wakes Tactus' control thread in a cycle that received control input
 * (ControlWakeup). POSIX makes it async-signal-safe; glibc's takes no lock and
 * enters the kernel (a futex wake) only when a thread waits. It is not in
 * `violations`; the test bounds its count by the cycles that had input.
 *
 * With TACTUS_RTPROBE_WITHIN (below) it counts only what one loaded object's
 * code calls, for a plugin inside a host's callback.
 *
 * It also counts the page faults the callback's thread takes inside the
 * callback (getrusage(RUSAGE_THREAD) around each call): a minor fault is a
 * page touched first there (under mlockall(MCL_ONFAULT), memory nobody touched
 * before), a major one a page read from disk. Neither is in `violations`.
 *
 * With TACTUS_RTPROBE_FAULTS=1 it says which pages a callback that faulted
 * made resident (see `report_fault_pages`).
 *
 * It also keeps the whole process's live heap (bytes and blocks allocated and
 * not freed, by any thread), readable while it runs with TACTUS_RTPROBE_HEAP
 * (see `struct heap`).
 *
 * At exit it writes its counts to $TACTUS_RTPROBE_REPORT (or stderr):
 *   cycles N
 *   violations N        (every counted call but sem_post)
 *   minor_faults N, major_faults N
 *   heap N bytes in N blocks   (still allocated at exit: not a `name N` line,
 *                              so no reader sums it with the calls)
 *   malloc N ... (every counter that is not zero, sem_post among them)
 *
 * The allocator functions forward to glibc's __libc_* entry points, which need
 * no dlsym (dlsym itself allocates); everything else is looked up with
 * dlsym(RTLD_NEXT) in a constructor, before any thread of the client exists.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <jack/jack.h>
#include "RTProbe.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

enum {
    C_MALLOC, C_CALLOC, C_REALLOC, C_FREE, C_POSIX_MEMALIGN, C_ALIGNED_ALLOC, C_MEMALIGN, C_VALLOC,
    C_MUTEX_LOCK, C_MUTEX_TRYLOCK, C_MUTEX_TIMEDLOCK, C_MUTEX_UNLOCK,
    C_RWLOCK_RDLOCK, C_RWLOCK_WRLOCK, C_RWLOCK_TRYRDLOCK, C_RWLOCK_TRYWRLOCK, C_RWLOCK_UNLOCK,
    C_COND_WAIT, C_COND_TIMEDWAIT, C_COND_SIGNAL, C_COND_BROADCAST,
    C_SPIN_LOCK, C_ONCE, C_SEM_WAIT, C_SEM_TIMEDWAIT, C_SEM_TRYWAIT, C_SEM_POST,
    C_COUNT
};
static const char *names[C_COUNT] = {
    "malloc", "calloc", "realloc", "free", "posix_memalign", "aligned_alloc", "memalign", "valloc",
    "pthread_mutex_lock", "pthread_mutex_trylock", "pthread_mutex_timedlock", "pthread_mutex_unlock",
    "pthread_rwlock_rdlock", "pthread_rwlock_wrlock", "pthread_rwlock_tryrdlock", "pthread_rwlock_trywrlock", "pthread_rwlock_unlock",
    "pthread_cond_wait", "pthread_cond_timedwait", "pthread_cond_signal", "pthread_cond_broadcast",
    "pthread_spin_lock", "pthread_once", "sem_wait", "sem_timedwait", "sem_trywait", "sem_post",
};

static atomic_ulong counts[C_COUNT];
static atomic_ulong cycles;
/* Calls of a timebase callback (jack_set_timebase_callback), measured as the process callback is. */
static atomic_ulong timebase_calls;
static __thread int in_callback __attribute__((tls_model("initial-exec")));

static int trace_enabled;   /* TACTUS_RTPROBE_TRACE=1: a backtrace on stderr for every counted call */
static __thread int tracing __attribute__((tls_model("initial-exec")));

/* TACTUS_RTPROBE_WITHIN=NAME: only calls with code of the loaded object whose
 * path contains NAME on the stack are counted; the others in the callback are
 * counted apart as `outside`. So a plugin's run() is measured inside a host's
 * process callback (jalv's own callback allocates), by a backtrace per call. */
static const char *within;
static atomic_ulong outside;
static __thread int inspecting __attribute__((tls_model("initial-exec")));

static int called_from_within(void) {
    void *frames[64];
    int n = backtrace(frames, 64);
    for (int i = 2; i < n; i++) {
        Dl_info info;
        if (dladdr(frames[i], &info) && info.dli_fname && strstr(info.dli_fname, within)) return 1;
    }
    return 0;
}

static inline void count(int which) {
    /* What the backtrace itself calls (the unwinder's malloc and pthread_once) is not the client's. */
    if (!in_callback || tracing) return;
    if (within) {
        if (inspecting) return;
        inspecting = 1;
        int inside = called_from_within();
        inspecting = 0;
        if (!inside) { atomic_fetch_add_explicit(&outside, 1, memory_order_relaxed); return; }
    }
    atomic_fetch_add_explicit(&counts[which], 1, memory_order_relaxed);
    /* sem_post is allowed: counted, not traced. */
    if (trace_enabled && which != C_SEM_POST) {
        tracing = 1;
        void *frames[40];
        int n = backtrace(frames, 40);
        dprintf(2, "rtprobe: %s in the process callback:\n", names[which]);
        backtrace_symbols_fd(frames, n, 2);
        tracing = 0;
    }
}

unsigned long tactus_rtprobe_violations(void) {
    unsigned long total = 0;
    for (int i = 0; i < C_COUNT; i++) if (i != C_SEM_POST) total += atomic_load(&counts[i]);
    return total;
}

/* ---- the callback trampoline ---- */

typedef int (*set_process_fn)(jack_client_t *, JackProcessCallback, void *);
static set_process_fn real_set_process_callback;
/* One client per process is what Tactus has; keep a few for the test tools. */
#define MAX_CLIENTS 8
static struct { JackProcessCallback callback; void *arg; } clients[MAX_CLIENTS];
static atomic_int client_count;

static atomic_ulong minor_faults, major_faults;

/* ---- where a fault was (TACTUS_RTPROBE_FAULTS=1) ----
 * Before every callback, the process's page table as /proc/self/pagemap gives
 * it (bit 63 present, 62 swapped, 61 file page or shared anonymous, 56 mapped
 * exclusively) for every mapping in /proc/self/maps; after a callback that
 * faulted, each page whose entry changed is written to stderr with its mapping
 * (a minor fault makes a page present, or a private page anonymous on its
 * first write). The snapshot is the whole process's: a page another thread
 * touched meanwhile is listed too. Map an address in the program's image to
 * its symbol with `nm -n` (the image's first mapping is its load address).
 * Slow (about a millisecond a cycle): a diagnosis, never the proof's run.
 * Its buffers are mapped once, at load, only when asked for (so the preloaded
 * library adds nothing to the memory the proof's run locks): nothing allocates. */
static int faults_enabled;
#define FAULT_MAPS_BYTES (1 << 20)
#define FAULT_PAGES (1 << 22)
static char *fault_maps;
static uint64_t *fault_before, *fault_after;

static void map_fault_buffers(void) {
    size_t bytes = FAULT_MAPS_BYTES + 2 * FAULT_PAGES * sizeof(uint64_t);
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) { faults_enabled = 0; return; }
    fault_maps = p;
    fault_before = (uint64_t *)(p + FAULT_MAPS_BYTES);
    fault_after = fault_before + FAULT_PAGES;
}

static long read_all(const char *path, char *buffer, long size) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    long total = 0, n;
    while (total < size - 1 && (n = read(fd, buffer + total, (size_t)(size - 1 - total))) > 0) total += n;
    close(fd);
    buffer[total] = 0;
    return total;
}

/* A mapping the snapshot covers: not [vsyscall], not a reservation of more
 * than 1 GiB (no access, or a heap arena's reserve: nothing in it is touched). */
static int fault_mapping(const char *line, unsigned long *start, unsigned long *stop) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    if (sscanf(line, "%lx-%lx", start, stop) != 2 || memmem(line, length, "[vsyscall]", 10)) return 0;
    const char *perms = strchr(line, ' ');
    if (perms && strncmp(perms + 1, "---", 3) == 0) return 0;
    return *stop - *start <= (1UL << 30);
}

/* The pagemap entries of every mapping listed in `fault_maps`, in its order. */
static long snapshot_pagemap(uint64_t *entries) {
    int fd = open("/proc/self/pagemap", O_RDONLY);
    if (fd < 0) return 0;
    long count = 0;
    for (char *line = fault_maps; *line; ) {
        char *end = strchr(line, '\n');
        unsigned long start, stop;
        if (fault_mapping(line, &start, &stop)) {
            long pages = (long)((stop - start) / 4096);
            if (count + pages > FAULT_PAGES) break;
            pread(fd, entries + count, (size_t)pages * 8, (off_t)(start / 4096 * 8));
            count += pages;
        }
        if (!end) break;
        line = end + 1;
    }
    close(fd);
    return count;
}

static void report_fault_pages(long count) {
    const uint64_t mask = (1ULL << 63) | (1ULL << 62) | (1ULL << 61) | (1ULL << 56);
    long index = 0;
    dprintf(2, "rtprobe: callback %lu faulted; pages changed:\n", atomic_load(&cycles) + 1);
    for (char *line = fault_maps; *line && index < count; ) {
        char *end = strchr(line, '\n');
        unsigned long start, stop;
        if (fault_mapping(line, &start, &stop)) {
            long pages = (long)((stop - start) / 4096);
            for (long p = 0; p < pages && index + p < count; p++) {
                uint64_t b = fault_before[index + p] & mask, a = fault_after[index + p] & mask;
                if (a != b) dprintf(2, "rtprobe:   page %#lx (+%#lx in its mapping) %016llx -> %016llx in %.*s\n",
                                    start + (unsigned long)p * 4096, (unsigned long)p * 4096,
                                    (unsigned long long)b, (unsigned long long)a, (int)(end ? end - line : (long)strlen(line)), line);
            }
            index += pages;
        }
        if (!end) break;
        line = end + 1;
    }
}

static int trampoline(jack_nframes_t frames, void *slot) {
    int i = (int)(long)slot;
    struct rusage before, after;
    long snapshot = 0;
    if (faults_enabled && read_all("/proc/self/maps", fault_maps, FAULT_MAPS_BYTES) > 0) snapshot = snapshot_pagemap(fault_before);
    getrusage(RUSAGE_THREAD, &before);
    in_callback = 1;
    int result = clients[i].callback(frames, clients[i].arg);
    in_callback = 0;
    getrusage(RUSAGE_THREAD, &after);
    if (snapshot && after.ru_minflt + after.ru_majflt != before.ru_minflt + before.ru_majflt) {
        snapshot_pagemap(fault_after);
        report_fault_pages(snapshot);
    }
    atomic_fetch_add_explicit(&minor_faults, (unsigned long)(after.ru_minflt - before.ru_minflt), memory_order_relaxed);
    atomic_fetch_add_explicit(&major_faults, (unsigned long)(after.ru_majflt - before.ru_majflt), memory_order_relaxed);
    atomic_fetch_add_explicit(&cycles, 1, memory_order_relaxed);
    return result;
}

int jack_set_process_callback(jack_client_t *client, JackProcessCallback callback, void *arg) {
    if (!real_set_process_callback) real_set_process_callback = (set_process_fn)dlsym(RTLD_NEXT, "jack_set_process_callback");
    int i = atomic_fetch_add(&client_count, 1);
    if (i >= MAX_CLIENTS || callback == NULL) return real_set_process_callback(client, callback, arg);
    clients[i].callback = callback;
    clients[i].arg = arg;
    return real_set_process_callback(client, trampoline, (void *)(long)i);
}

/* A timebase master's callback runs on the process thread after the process
   callback (jack2), for the next cycle: it is measured the same way. */
typedef int (*set_timebase_fn)(jack_client_t *, int, JackTimebaseCallback, void *);
static struct { JackTimebaseCallback callback; void *arg; } timebases[MAX_CLIENTS];
static atomic_int timebase_count;

static void timebase_trampoline(jack_transport_state_t state, jack_nframes_t frames, jack_position_t *pos, int new_pos, void *slot) {
    int i = (int)(long)slot;
    in_callback = 1;
    timebases[i].callback(state, frames, pos, new_pos, timebases[i].arg);
    in_callback = 0;
    atomic_fetch_add_explicit(&timebase_calls, 1, memory_order_relaxed);
}

int jack_set_timebase_callback(jack_client_t *client, int conditional, JackTimebaseCallback callback, void *arg) {
    set_timebase_fn real = (set_timebase_fn)dlsym(RTLD_NEXT, "jack_set_timebase_callback");
    int i = atomic_fetch_add(&timebase_count, 1);
    if (i >= MAX_CLIENTS || callback == NULL) return real(client, conditional, callback, arg);
    timebases[i].callback = callback;
    timebases[i].arg = arg;
    return real(client, conditional, timebase_trampoline, (void *)(long)i);
}

/* ---- allocator ---- */

/* The whole process's live heap (every thread, not only the callback's): the
 * bytes glibc holds for each block still allocated (malloc_usable_size, which
 * is what free gives back) and the number of those blocks. RssAnon moves with
 * the heap's fragmentation and glibc's trimming; these move only by what is
 * allocated and freed, so a leak shows exactly. With TACTUS_RTPROBE_HEAP=PATH
 * they live in PATH, mapped shared: two little-endian int64 (bytes, blocks),
 * read while the process runs (what the churn benchmark samples). */
struct heap { atomic_long bytes, blocks; };
static struct heap heap_before_mapped;
static struct heap *heap = &heap_before_mapped;

static inline void heap_add(void *p) {
    if (!p) return;
    atomic_fetch_add_explicit(&heap->bytes, (long)malloc_usable_size(p), memory_order_relaxed);
    atomic_fetch_add_explicit(&heap->blocks, 1, memory_order_relaxed);
}
static inline void heap_remove(void *p) {
    if (!p) return;
    atomic_fetch_sub_explicit(&heap->bytes, (long)malloc_usable_size(p), memory_order_relaxed);
    atomic_fetch_sub_explicit(&heap->blocks, 1, memory_order_relaxed);
}

void *malloc(size_t n) { count(C_MALLOC); void *p = __libc_malloc(n); heap_add(p); return p; }
void *calloc(size_t n, size_t m) { count(C_CALLOC); void *p = __libc_calloc(n, m); heap_add(p); return p; }
void *realloc(void *p, size_t n) {
    count(C_REALLOC);
    long before = p ? (long)malloc_usable_size(p) : 0;
    void *q = __libc_realloc(p, n);
    /* NULL with a block and a size: it failed and the block is still there. */
    if (!q && p && n) return q;
    atomic_fetch_add_explicit(&heap->bytes, (q ? (long)malloc_usable_size(q) : 0) - before, memory_order_relaxed);
    atomic_fetch_add_explicit(&heap->blocks, (q ? 1 : 0) - (p ? 1 : 0), memory_order_relaxed);
    return q;
}
/* glibc's own reallocarray calls its realloc inside libc, which no interposer sees. */
void *reallocarray(void *p, size_t n, size_t m) {
    size_t bytes;
    if (__builtin_mul_overflow(n, m, &bytes)) { errno = ENOMEM; return NULL; }
    return realloc(p, bytes);
}
void free(void *p) { count(C_FREE); heap_remove(p); __libc_free(p); }
void *memalign(size_t a, size_t n) { count(C_MEMALIGN); void *p = __libc_memalign(a, n); heap_add(p); return p; }
void *aligned_alloc(size_t a, size_t n) { count(C_ALIGNED_ALLOC); void *p = __libc_memalign(a, n); heap_add(p); return p; }
void *valloc(size_t n) { count(C_VALLOC); void *p = __libc_memalign(4096, n); heap_add(p); return p; }
int posix_memalign(void **out, size_t a, size_t n) {
    count(C_POSIX_MEMALIGN);
    if (a < sizeof(void *) || (a & (a - 1)) != 0) return EINVAL;
    void *p = __libc_memalign(a, n);
    if (!p) return ENOMEM;
    heap_add(p);
    *out = p;
    return 0;
}

/* Before any thread but the first exists (a constructor): the counts so far move into the file. */
static void map_heap(const char *path) {
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    struct heap *mapped = MAP_FAILED;
    if (ftruncate(fd, sizeof *mapped) == 0)
        mapped = mmap(NULL, sizeof *mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (mapped == MAP_FAILED) return;
    atomic_store(&mapped->bytes, atomic_load(&heap->bytes));
    atomic_store(&mapped->blocks, atomic_load(&heap->blocks));
    heap = mapped;
}

/* ---- locks ---- */

#define REAL(ret, name, params) static ret (*real_##name) params;
REAL(int, pthread_mutex_lock, (pthread_mutex_t *))
REAL(int, pthread_mutex_trylock, (pthread_mutex_t *))
REAL(int, pthread_mutex_timedlock, (pthread_mutex_t *, const struct timespec *))
REAL(int, pthread_mutex_unlock, (pthread_mutex_t *))
REAL(int, pthread_rwlock_rdlock, (pthread_rwlock_t *))
REAL(int, pthread_rwlock_wrlock, (pthread_rwlock_t *))
REAL(int, pthread_rwlock_tryrdlock, (pthread_rwlock_t *))
REAL(int, pthread_rwlock_trywrlock, (pthread_rwlock_t *))
REAL(int, pthread_rwlock_unlock, (pthread_rwlock_t *))
REAL(int, pthread_cond_wait, (pthread_cond_t *, pthread_mutex_t *))
REAL(int, pthread_cond_timedwait, (pthread_cond_t *, pthread_mutex_t *, const struct timespec *))
REAL(int, pthread_cond_signal, (pthread_cond_t *))
REAL(int, pthread_cond_broadcast, (pthread_cond_t *))
REAL(int, pthread_spin_lock, (pthread_spinlock_t *))
REAL(int, pthread_once, (pthread_once_t *, void (*)(void)))
REAL(int, sem_wait, (sem_t *))
REAL(int, sem_timedwait, (sem_t *, const struct timespec *))
REAL(int, sem_trywait, (sem_t *))
REAL(int, sem_post, (sem_t *))

static void resolve(void) {
#define LOOKUP(name) real_##name = dlsym(RTLD_NEXT, #name)
    LOOKUP(pthread_mutex_lock); LOOKUP(pthread_mutex_trylock); LOOKUP(pthread_mutex_timedlock); LOOKUP(pthread_mutex_unlock);
    LOOKUP(pthread_rwlock_rdlock); LOOKUP(pthread_rwlock_wrlock); LOOKUP(pthread_rwlock_tryrdlock);
    LOOKUP(pthread_rwlock_trywrlock); LOOKUP(pthread_rwlock_unlock);
    /* The condition variables have two versions; the current one is 2.3.2. */
    real_pthread_cond_wait = dlvsym(RTLD_NEXT, "pthread_cond_wait", "GLIBC_2.3.2");
    real_pthread_cond_timedwait = dlvsym(RTLD_NEXT, "pthread_cond_timedwait", "GLIBC_2.3.2");
    real_pthread_cond_signal = dlvsym(RTLD_NEXT, "pthread_cond_signal", "GLIBC_2.3.2");
    real_pthread_cond_broadcast = dlvsym(RTLD_NEXT, "pthread_cond_broadcast", "GLIBC_2.3.2");
    if (!real_pthread_cond_wait) { LOOKUP(pthread_cond_wait); LOOKUP(pthread_cond_timedwait); LOOKUP(pthread_cond_signal); LOOKUP(pthread_cond_broadcast); }
    LOOKUP(pthread_spin_lock); LOOKUP(pthread_once);
    LOOKUP(sem_wait); LOOKUP(sem_timedwait); LOOKUP(sem_trywait); LOOKUP(sem_post);
    real_set_process_callback = (set_process_fn)dlsym(RTLD_NEXT, "jack_set_process_callback");
#undef LOOKUP
}

/* A call before the constructor ran (while libraries load) resolves everything
   first; glibc's dlsym takes only its internal locks, not these symbols. */
#define FORWARD(which, name, args, ...) \
    count(which); \
    if (!real_##name) resolve(); \
    return real_##name args;

int pthread_mutex_lock(pthread_mutex_t *m) { FORWARD(C_MUTEX_LOCK, pthread_mutex_lock, (m)) }
int pthread_mutex_trylock(pthread_mutex_t *m) { FORWARD(C_MUTEX_TRYLOCK, pthread_mutex_trylock, (m)) }
int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t) { FORWARD(C_MUTEX_TIMEDLOCK, pthread_mutex_timedlock, (m, t)) }
int pthread_mutex_unlock(pthread_mutex_t *m) { FORWARD(C_MUTEX_UNLOCK, pthread_mutex_unlock, (m)) }
int pthread_rwlock_rdlock(pthread_rwlock_t *l) { FORWARD(C_RWLOCK_RDLOCK, pthread_rwlock_rdlock, (l)) }
int pthread_rwlock_wrlock(pthread_rwlock_t *l) { FORWARD(C_RWLOCK_WRLOCK, pthread_rwlock_wrlock, (l)) }
int pthread_rwlock_tryrdlock(pthread_rwlock_t *l) { FORWARD(C_RWLOCK_TRYRDLOCK, pthread_rwlock_tryrdlock, (l)) }
int pthread_rwlock_trywrlock(pthread_rwlock_t *l) { FORWARD(C_RWLOCK_TRYWRLOCK, pthread_rwlock_trywrlock, (l)) }
int pthread_rwlock_unlock(pthread_rwlock_t *l) { FORWARD(C_RWLOCK_UNLOCK, pthread_rwlock_unlock, (l)) }
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { FORWARD(C_COND_WAIT, pthread_cond_wait, (c, m)) }
int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t) { FORWARD(C_COND_TIMEDWAIT, pthread_cond_timedwait, (c, m, t)) }
int pthread_cond_signal(pthread_cond_t *c) { FORWARD(C_COND_SIGNAL, pthread_cond_signal, (c)) }
int pthread_cond_broadcast(pthread_cond_t *c) { FORWARD(C_COND_BROADCAST, pthread_cond_broadcast, (c)) }
int pthread_spin_lock(pthread_spinlock_t *l) { FORWARD(C_SPIN_LOCK, pthread_spin_lock, (l)) }
int pthread_once(pthread_once_t *o, void (*f)(void)) { FORWARD(C_ONCE, pthread_once, (o, f)) }
int sem_wait(sem_t *s) { FORWARD(C_SEM_WAIT, sem_wait, (s)) }
int sem_timedwait(sem_t *s, const struct timespec *t) { FORWARD(C_SEM_TIMEDWAIT, sem_timedwait, (s, t)) }
int sem_trywait(sem_t *s) { FORWARD(C_SEM_TRYWAIT, sem_trywait, (s)) }
int sem_post(sem_t *s) { FORWARD(C_SEM_POST, sem_post, (s)) }

/* ---- report ---- */

__attribute__((constructor)) static void start(void) {
    resolve();
    const char *trace = getenv("TACTUS_RTPROBE_TRACE");
    trace_enabled = trace && trace[0] == '1';
    const char *filter = getenv("TACTUS_RTPROBE_WITHIN");
    within = filter && filter[0] ? filter : NULL;
    const char *faults = getenv("TACTUS_RTPROBE_FAULTS");
    faults_enabled = faults && faults[0] == '1';
    if (faults_enabled) map_fault_buffers();
    const char *heap_path = getenv("TACTUS_RTPROBE_HEAP");
    if (heap_path && heap_path[0]) map_heap(heap_path);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("TACTUS_RTPROBE_REPORT");
    FILE *out = path ? fopen(path, "w") : stderr;
    if (!out) out = stderr;
    fprintf(out, "cycles %lu\nviolations %lu\ntimebase-calls %lu\n", atomic_load(&cycles), tactus_rtprobe_violations(), atomic_load(&timebase_calls));
    if (within) fprintf(out, "outside %lu\n", atomic_load(&outside));
    fprintf(out, "minor_faults %lu\nmajor_faults %lu\n", atomic_load(&minor_faults), atomic_load(&major_faults));
    fprintf(out, "heap %ld bytes in %ld blocks\n", atomic_load(&heap->bytes), atomic_load(&heap->blocks));
    for (int i = 0; i < C_COUNT; i++) {
        unsigned long n = atomic_load(&counts[i]);
        if (n) fprintf(out, "%s %lu\n", names[i], n);
    }
    if (out != stderr) fclose(out);
}
