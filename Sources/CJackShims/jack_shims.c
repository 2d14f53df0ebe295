#define _GNU_SOURCE
#include "CJackShims.h"
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Linux 5.14 (include/uapi/asm-generic/mman-common.h); older C libraries lack the name. */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

struct tactus_populated { long bytes; int error; };

/* The first object dl_iterate_phdr reports is the program itself: its
   writable PT_LOAD segments (.data, .bss, the GOT), less what PT_GNU_RELRO
   makes read-only after relocation (whole pages below its end). */
static int tactus_populate_first_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct tactus_populated *populated = data;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t relroStart = 0, relroEnd = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_GNU_RELRO) continue;
        relroStart = (info->dlpi_addr + header->p_vaddr) & ~(page - 1);
        relroEnd = (info->dlpi_addr + header->p_vaddr + header->p_memsz) & ~(page - 1);
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_LOAD || !(header->p_flags & PF_W)) continue;
        uintptr_t start = (info->dlpi_addr + header->p_vaddr) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + header->p_vaddr + header->p_memsz + page - 1) & ~(page - 1);
        if (relroEnd > start && relroStart < end) start = relroEnd > start ? relroEnd : start;
        if (end <= start) continue;
        if (madvise((void *)start, end - start, MADV_POPULATE_WRITE) != 0) populated->error = errno;
        else populated->bytes += (long)(end - start);
    }
    return 1;
}

/* The object whose code holds `runtime` (the Swift runtime: libswiftCore.so,
   or the program itself with -static-stdlib): the zero-filled tail of its
   writable PT_LOAD segment (.bss), which holds the runtime's first metadata
   allocation pool. Its .data and the rest are not written by a cycle: left. */
struct tactus_runtime_search { uintptr_t runtime; struct tactus_populated *populated; };

static int tactus_populate_runtime_bss(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct tactus_runtime_search *search = data;
    int holds = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        if (header->p_type == PT_LOAD && search->runtime >= start && search->runtime < start + header->p_memsz) holds = 1;
    }
    if (!holds) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_LOAD || !(header->p_flags & PF_W) || header->p_memsz <= header->p_filesz) continue;
        uintptr_t bss = info->dlpi_addr + header->p_vaddr + header->p_filesz;
        uintptr_t end = (info->dlpi_addr + header->p_vaddr + header->p_memsz + page - 1) & ~(page - 1);
        /* The page .bss begins in holds the end of the file's data too; when
           that page was made read-only after start-up, .bss from the next one. */
        uintptr_t start = bss & ~(page - 1);
        if (madvise((void *)start, end - start, MADV_POPULATE_WRITE) != 0) {
            start = (bss + page - 1) & ~(page - 1);
            if (end > start && madvise((void *)start, end - start, MADV_POPULATE_WRITE) != 0) { search->populated->error = errno; continue; }
        }
        search->populated->bytes += (long)(end - start);
    }
    return 1;
}

long tactus_populate_program_data(void) {
    struct tactus_populated populated = { 0, 0 };
    dl_iterate_phdr(tactus_populate_first_object, &populated);
    /* dlsym gives the definition's address (a PLT entry's would name the program). */
    void *runtime = dlsym(RTLD_DEFAULT, "swift_getWitnessTable");
    if (runtime) {
        struct tactus_runtime_search search = { (uintptr_t)runtime, &populated };
        dl_iterate_phdr(tactus_populate_runtime_bss, &search);
    }
    return populated.error ? -populated.error : populated.bytes;
}
