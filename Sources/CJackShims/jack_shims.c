#define _GNU_SOURCE
#include "CJackShims.h"
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

long tactus_populate_program_data(void) {
    struct tactus_populated populated = { 0, 0 };
    dl_iterate_phdr(tactus_populate_first_object, &populated);
    return populated.error ? -populated.error : populated.bytes;
}
