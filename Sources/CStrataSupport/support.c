#define _GNU_SOURCE
#include "CStrataSupport.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif

uint64_t strata_atomic_load_u64(const volatile uint64_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
void strata_atomic_store_u64(volatile uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
uint64_t strata_atomic_fetch_add_u64(volatile uint64_t *p, uint64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
int strata_atomic_cas_u64(volatile uint64_t *p, uint64_t expected, uint64_t desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
uint32_t strata_atomic_load_u32(const volatile uint32_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
void strata_atomic_store_u32(volatile uint32_t *p, uint32_t v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
uint32_t strata_atomic_fetch_add_u32(volatile uint32_t *p, uint32_t v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
int strata_atomic_cas_u32(volatile uint32_t *p, uint32_t expected, uint32_t desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
void strata_full_fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

int strata_futex_wait(volatile uint32_t *addr, uint32_t expected, int timeout_ms) {
#ifdef __linux__
    struct timespec ts;
    ts.tv_sec = timeout_ms / 1000;
    ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
    long r = syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT, expected, &ts, NULL, 0);
    if (r == 0) return 0;
    if (errno == ETIMEDOUT) return 1;
    if (errno == EAGAIN || errno == EINTR) return 0;
    return -1;
#else
    (void)addr; (void)expected; usleep((useconds_t)timeout_ms * 1000); return 1;
#endif
}

int strata_futex_wake_all(volatile uint32_t *addr) {
#ifdef __linux__
    return (int)syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
#else
    (void)addr; return 0;
#endif
}

uint64_t strata_process_start_ticks(int pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    char *p = strrchr(buf, ')');
    if (!p) return 0;
    p++;
    int field = 2;
    unsigned long long value = 0;
    char *save = NULL;
    for (char *tok = strtok_r(p, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        field++;
        if (field == 22) { value = strtoull(tok, NULL, 10); break; }
    }
    return (uint64_t)value;
}

#include <fcntl.h>
int strata_ofd_lock(int fd, int64_t start, int64_t len, int kind, int wait) {
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = kind == 0 ? F_UNLCK : (kind == 1 ? F_RDLCK : F_WRLCK);
    fl.l_whence = SEEK_SET;
    fl.l_start = start;
    fl.l_len = len;
    fl.l_pid = 0;
    for (;;) {
        int r = fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl);
        if (r == 0) return 0;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EACCES) return 1;
        return -1;
    }
}

int strata_lock_holder(int fd, int64_t start, int64_t len, int kind) {
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = kind == 1 ? F_RDLCK : F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = start;
    fl.l_len = len;
    fl.l_pid = 0;
    if (fcntl(fd, F_OFD_GETLK, &fl) != 0) return 0;
    if (fl.l_type == F_UNLCK) return 0;
    return fl.l_pid == 0 ? -1 : fl.l_pid;
}

int strata_gettid(void) {
#ifdef __linux__
    return (int)syscall(SYS_gettid);
#else
    return 0;
#endif
}

#ifdef __linux__
#include <sys/mman.h>
int strata_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC); }
#else
int strata_memfd_create(const char *name) { (void)name; errno = ENOSYS; return -1; }
#endif
