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

#ifdef __linux__
#include <sys/random.h>
#endif
int strata_random_bytes(void *p, uint64_t n) {
    uint64_t done = 0;
    while (done < n) {
#ifdef __linux__
        ssize_t r = getrandom((char *)p + done, (size_t)(n - done), 0);
#else
        ssize_t r = -1; errno = ENOSYS;
#endif
        if (r < 0) { if (errno == EINTR) continue; return -1; }
        done += (uint64_t)r;
    }
    return 0;
}

/* AES-256 (FIPS-197) with AES-NI; key expansion as in Intel's AES-NI white paper. */
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <wmmintrin.h>
#include <emmintrin.h>
#define STRATA_AES __attribute__((target("aes,sse2")))

STRATA_AES static inline __m128i strata_assist1(__m128i t1, __m128i t2) {
    __m128i t4;
    t2 = _mm_shuffle_epi32(t2, 0xff);
    t4 = _mm_slli_si128(t1, 4); t1 = _mm_xor_si128(t1, t4);
    t4 = _mm_slli_si128(t4, 4); t1 = _mm_xor_si128(t1, t4);
    t4 = _mm_slli_si128(t4, 4); t1 = _mm_xor_si128(t1, t4);
    return _mm_xor_si128(t1, t2);
}
STRATA_AES static inline __m128i strata_assist2(__m128i t1, __m128i t3) {
    __m128i t2, t4;
    t4 = _mm_aeskeygenassist_si128(t1, 0x0);
    t2 = _mm_shuffle_epi32(t4, 0xaa);
    t4 = _mm_slli_si128(t3, 4); t3 = _mm_xor_si128(t3, t4);
    t4 = _mm_slli_si128(t4, 4); t3 = _mm_xor_si128(t3, t4);
    t4 = _mm_slli_si128(t4, 4); t3 = _mm_xor_si128(t3, t4);
    return _mm_xor_si128(t3, t2);
}
#define STRATA_EXPAND(i, rcon) \
    t2 = _mm_aeskeygenassist_si128(t3, rcon); t1 = strata_assist1(t1, t2); k[i] = t1; \
    if (i + 1 < 15) { t3 = strata_assist2(t1, t3); k[i + 1] = t3; }

STRATA_AES int strata_aes256_init(uint8_t *schedule, const uint8_t *key) {
    if (!__builtin_cpu_supports("aes")) return 0;
    __m128i k[15], t1, t2, t3;
    t1 = _mm_loadu_si128((const __m128i *)key);
    t3 = _mm_loadu_si128((const __m128i *)(key + 16));
    k[0] = t1; k[1] = t3;
    STRATA_EXPAND(2, 0x01) STRATA_EXPAND(4, 0x02) STRATA_EXPAND(6, 0x04) STRATA_EXPAND(8, 0x08)
    STRATA_EXPAND(10, 0x10) STRATA_EXPAND(12, 0x20) STRATA_EXPAND(14, 0x40)
    for (int i = 0; i < 15; i++) _mm_storeu_si128((__m128i *)(schedule + 16 * i), k[i]);
    /* Decryption round keys (equivalent inverse cipher). */
    _mm_storeu_si128((__m128i *)(schedule + 240), k[14]);
    for (int i = 1; i < 14; i++) _mm_storeu_si128((__m128i *)(schedule + 240 + 16 * i), _mm_aesimc_si128(k[14 - i]));
    _mm_storeu_si128((__m128i *)(schedule + 240 + 16 * 14), k[0]);
    return 1;
}

STRATA_AES void strata_aes256_cbc_encrypt(const uint8_t *schedule, const uint8_t *iv, const uint8_t *in, uint8_t *out, uint64_t length) {
    __m128i k[15];
    for (int i = 0; i < 15; i++) k[i] = _mm_loadu_si128((const __m128i *)(schedule + 16 * i));
    __m128i fb = _mm_loadu_si128((const __m128i *)iv);
    for (uint64_t o = 0; o < length; o += 16) {
        __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + o)), fb);
        b = _mm_xor_si128(b, k[0]);
        for (int r = 1; r < 14; r++) b = _mm_aesenc_si128(b, k[r]);
        b = _mm_aesenclast_si128(b, k[14]);
        _mm_storeu_si128((__m128i *)(out + o), b);
        fb = b;
    }
}

/* Four independent CBC chains (four pages, each with its own IV) interleaved: one chain is
   bound by the latency of its 14 rounds, four keep the AES unit busy. */
STRATA_AES void strata_aes256_cbc_encrypt4(const uint8_t *schedule, const uint8_t *const *ivs, const uint8_t *const *ins,
                                           uint8_t *const *outs, uint64_t length) {
    __m128i k[15];
    for (int i = 0; i < 15; i++) k[i] = _mm_loadu_si128((const __m128i *)(schedule + 16 * i));
    __m128i f0 = _mm_loadu_si128((const __m128i *)ivs[0]), f1 = _mm_loadu_si128((const __m128i *)ivs[1]);
    __m128i f2 = _mm_loadu_si128((const __m128i *)ivs[2]), f3 = _mm_loadu_si128((const __m128i *)ivs[3]);
    for (uint64_t o = 0; o < length; o += 16) {
        __m128i b0 = _mm_xor_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(ins[0] + o)), f0), k[0]);
        __m128i b1 = _mm_xor_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(ins[1] + o)), f1), k[0]);
        __m128i b2 = _mm_xor_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(ins[2] + o)), f2), k[0]);
        __m128i b3 = _mm_xor_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(ins[3] + o)), f3), k[0]);
        for (int r = 1; r < 14; r++) {
            b0 = _mm_aesenc_si128(b0, k[r]); b1 = _mm_aesenc_si128(b1, k[r]);
            b2 = _mm_aesenc_si128(b2, k[r]); b3 = _mm_aesenc_si128(b3, k[r]);
        }
        f0 = _mm_aesenclast_si128(b0, k[14]); f1 = _mm_aesenclast_si128(b1, k[14]);
        f2 = _mm_aesenclast_si128(b2, k[14]); f3 = _mm_aesenclast_si128(b3, k[14]);
        _mm_storeu_si128((__m128i *)(outs[0] + o), f0); _mm_storeu_si128((__m128i *)(outs[1] + o), f1);
        _mm_storeu_si128((__m128i *)(outs[2] + o), f2); _mm_storeu_si128((__m128i *)(outs[3] + o), f3);
    }
}

STRATA_AES void strata_aes256_cbc_decrypt(const uint8_t *schedule, const uint8_t *iv, const uint8_t *in, uint8_t *out, uint64_t length) {
    __m128i k[15];
    for (int i = 0; i < 15; i++) k[i] = _mm_loadu_si128((const __m128i *)(schedule + 240 + 16 * i));
    __m128i prev = _mm_loadu_si128((const __m128i *)iv);
    uint64_t o = 0;
    /* Four blocks at a time (CBC decryption is parallel). */
    for (; o + 64 <= length; o += 64) {
        __m128i c0 = _mm_loadu_si128((const __m128i *)(in + o));
        __m128i c1 = _mm_loadu_si128((const __m128i *)(in + o + 16));
        __m128i c2 = _mm_loadu_si128((const __m128i *)(in + o + 32));
        __m128i c3 = _mm_loadu_si128((const __m128i *)(in + o + 48));
        __m128i b0 = _mm_xor_si128(c0, k[0]), b1 = _mm_xor_si128(c1, k[0]), b2 = _mm_xor_si128(c2, k[0]), b3 = _mm_xor_si128(c3, k[0]);
        for (int r = 1; r < 14; r++) {
            b0 = _mm_aesdec_si128(b0, k[r]); b1 = _mm_aesdec_si128(b1, k[r]);
            b2 = _mm_aesdec_si128(b2, k[r]); b3 = _mm_aesdec_si128(b3, k[r]);
        }
        b0 = _mm_aesdeclast_si128(b0, k[14]); b1 = _mm_aesdeclast_si128(b1, k[14]);
        b2 = _mm_aesdeclast_si128(b2, k[14]); b3 = _mm_aesdeclast_si128(b3, k[14]);
        _mm_storeu_si128((__m128i *)(out + o), _mm_xor_si128(b0, prev));
        _mm_storeu_si128((__m128i *)(out + o + 16), _mm_xor_si128(b1, c0));
        _mm_storeu_si128((__m128i *)(out + o + 32), _mm_xor_si128(b2, c1));
        _mm_storeu_si128((__m128i *)(out + o + 48), _mm_xor_si128(b3, c2));
        prev = c3;
    }
    for (; o < length; o += 16) {
        __m128i c = _mm_loadu_si128((const __m128i *)(in + o));
        __m128i b = _mm_xor_si128(c, k[0]);
        for (int r = 1; r < 14; r++) b = _mm_aesdec_si128(b, k[r]);
        b = _mm_aesdeclast_si128(b, k[14]);
        _mm_storeu_si128((__m128i *)(out + o), _mm_xor_si128(b, prev));
        prev = c;
    }
}
#else
int strata_aes256_init(uint8_t *schedule, const uint8_t *key) { (void)schedule; (void)key; return 0; }
void strata_aes256_cbc_encrypt(const uint8_t *s, const uint8_t *iv, const uint8_t *in, uint8_t *out, uint64_t n) { (void)s; (void)iv; (void)in; (void)out; (void)n; }
void strata_aes256_cbc_decrypt(const uint8_t *s, const uint8_t *iv, const uint8_t *in, uint8_t *out, uint64_t n) { (void)s; (void)iv; (void)in; (void)out; (void)n; }
void strata_aes256_cbc_encrypt4(const uint8_t *s, const uint8_t *const *ivs, const uint8_t *const *ins, uint8_t *const *outs, uint64_t n) { (void)s; (void)ivs; (void)ins; (void)outs; (void)n; }
#endif

int strata_start_writeback(int fd, int64_t offset, int64_t length) {
#ifdef __linux__
    return sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd; (void)offset; (void)length;
    return 0;
#endif
}

int strata_allocate(int fd, int64_t offset, int64_t length) {
#ifdef __linux__
    if (fallocate(fd, 0, offset, length) == 0) return 0;
    if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) return -2;
    return -1;
#else
    (void)fd; (void)offset; (void)length;
    return -2;
#endif
}

// The Swift runtime's entry point (HeapObject.cpp): returns the object when it took the
// reference, NULL when the object's deinit has begun.
extern void *swift_tryRetain(void *object);
int strata_try_retain(void *object) { return swift_tryRetain(object) != 0; }
