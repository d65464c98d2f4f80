// Small C helpers the storage layer needs and Swift cannot express directly:
// sequentially consistent atomics on memory shared between processes (the lock file is
// mmap'd by every participant) and futex wait/wake on that memory (syscall is variadic).
#ifndef CSTRATASUPPORT_H
#define CSTRATASUPPORT_H
#include <stdint.h>

uint64_t strata_atomic_load_u64(const volatile uint64_t *p);
void strata_atomic_store_u64(volatile uint64_t *p, uint64_t v);
uint64_t strata_atomic_fetch_add_u64(volatile uint64_t *p, uint64_t v);
int strata_atomic_cas_u64(volatile uint64_t *p, uint64_t expected, uint64_t desired);
uint32_t strata_atomic_load_u32(const volatile uint32_t *p);
void strata_atomic_store_u32(volatile uint32_t *p, uint32_t v);
uint32_t strata_atomic_fetch_add_u32(volatile uint32_t *p, uint32_t v);
int strata_atomic_cas_u32(volatile uint32_t *p, uint32_t expected, uint32_t desired);
void strata_full_fence(void);
/// Relaxed (unordered but untorn) loads and stores, inlined: for caches that several threads
/// fill and read, where a stale value only costs a recomputation.
static inline uint64_t strata_relaxed_load_u64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
static inline void strata_relaxed_store_u64(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

/// Asks the CPU to bring the cache line at p in (no fault when p is not mapped): lookups start
/// the memory reads of blocks they will read next in parallel instead of one after another.
static inline void strata_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// The Swift runtime's swift_tryRetain: one more strong reference to a native Swift object
/// unless its deinit has begun (what loading a weak reference does, without giving the object
/// a side table). Returns 1 when the reference was taken.
int strata_try_retain(void *object);

/// Waits while *addr == expected, at most timeout_ms milliseconds (shared, not private futex).
/// Returns 0 when woken or the value differed, 1 on timeout, -1 on another error.
int strata_futex_wait(volatile uint32_t *addr, uint32_t expected, int timeout_ms);
/// Wakes every waiter on addr, in every process that maps the same file.
int strata_futex_wake_all(volatile uint32_t *addr);

/// Start time of a process in clock ticks since boot (field 22 of /proc/PID/stat), 0 if unknown.
/// Used with the pid to tell a live process from a reused pid.
uint64_t strata_process_start_ticks(int pid);


/// Open-file-description byte-range lock (F_OFD_SETLK/SETLKW) on [start, start+len).
/// kind: 0 unlock, 1 shared, 2 exclusive. wait: block until granted.
/// Returns 0 on success, 1 when the lock is held elsewhere (non-blocking), -1 on error (errno set).
int strata_ofd_lock(int fd, int64_t start, int64_t len, int kind, int wait);
/// The pid holding a conflicting lock on [start, start+len) of the given kind, or 0 when none
/// (classic fcntl F_GETLK: shows a pid only for POSIX locks; OFD holders report -1).
int strata_lock_holder(int fd, int64_t start, int64_t len, int kind);

/// The calling thread's kernel id.
int strata_gettid(void);

/// An anonymous memory-backed file (memfd_create, close-on-exec) for in-memory databases:
/// mmap, pwrite and byte-range locks work on it as on a file. Returns -1 (errno set) on error.
int strata_memfd_create(const char *name);

/// Fills n bytes with the kernel's cryptographic randomness (getrandom). 0 on success, -1 (errno set).
int strata_random_bytes(void *p, uint64_t n);

/// AES-256 with the x86-64 AES instructions (AES-NI), for page encryption. `schedule` is 480
/// bytes (encryption then decryption round keys). Returns 0 when the CPU lacks AES-NI (the
/// caller then uses swift-crypto's portable AES), 1 on success.
int strata_aes256_init(uint8_t *schedule, const uint8_t *key);
/// AES-256-CBC without padding; `length` is a multiple of 16. In place is allowed.
void strata_aes256_cbc_encrypt(const uint8_t *schedule, const uint8_t *iv, const uint8_t *in, uint8_t *out, uint64_t length);
void strata_aes256_cbc_decrypt(const uint8_t *schedule, const uint8_t *iv, const uint8_t *in, uint8_t *out, uint64_t length);
/// Four pages at once: chain i encrypts `ins[i]` with `ivs[i]` into `outs[i]` (the same bytes as
/// four calls of strata_aes256_cbc_encrypt, with the AES rounds of the chains interleaved).
void strata_aes256_cbc_encrypt4(const uint8_t *schedule, const uint8_t *const *ivs, const uint8_t *const *ins,
                                uint8_t *const *outs, uint64_t length);
/// Starts writeback of a byte range without waiting (Linux sync_file_range WRITE; no-op
/// elsewhere): a later fdatasync then has less left to do. Returns 0 or -1 (errno).
int strata_start_writeback(int fd, int64_t offset, int64_t length);
/// Allocates disk space for a byte range (Linux fallocate, mode 0: the file grows if needed).
/// Returns 0, -1 with errno set (ENOSPC: disk full), or -2 when the file system cannot do it.
int strata_allocate(int fd, int64_t offset, int64_t length);
#endif
