// The clocks and the system's random bytes, as a simulated device's code sees them.
//
// Foundation's `Date()` reads CLOCK_REALTIME, `ContinuousClock` and `DispatchTime` read the
// monotonic clocks, Foundation's `UUID()` reads /dev/urandom, and Swift's
// `SystemRandomNumberGenerator` asks the kernel with `syscall(SYS_getrandom)`. Defined here,
// in the program itself, these functions come before the C library's: on a thread draining a
// device's jobs they answer from the device (its simulated time, its seeded stream), so the
// app's dates, identifiers and random numbers repeat with the seed; on every other thread, and
// before the simulation installs its sources, they are the C library's own.
#define _GNU_SOURCE
#include "ConcurrencyHookShim.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static _Thread_local int device_active;
static _Atomic(synclab_device_now) device_now;
static _Atomic(synclab_device_random) device_random;

void synclab_set_device_sources(synclab_device_now now, synclab_device_random random) {
    atomic_store(&device_now, now);
    atomic_store(&device_random, random);
}

void synclab_set_device_active(int active) { device_active = active; }

/// The device's wall clock (microseconds since 1970) or, with `uptime`, its monotonic clock,
/// when a device's code runs on this thread.
static int simulated_now(int64_t *microseconds, int uptime) {
    if (!device_active) return 0;
    synclab_device_now now = atomic_load(&device_now);
    int64_t wall, up;
    if (now == NULL || !now(&wall, &up)) return 0;
    *microseconds = uptime ? up : wall;
    return 1;
}

static int is_monotonic(clockid_t clock) {
    return clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW
        || clock == CLOCK_MONOTONIC_COARSE || clock == CLOCK_BOOTTIME;
}

/// Fills `buffer` from the device's stream, when a device's code runs on this thread.
static int simulated_random(void *buffer, size_t count) {
    if (!device_active) return 0;
    synclab_device_random random = atomic_load(&device_random);
    return random != NULL && random(buffer, count);
}

#define NEXT(name) \
    static __typeof__(&name) next_##name; \
    if (next_##name == NULL) next_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

int clock_gettime(clockid_t clock, struct timespec *ts) {
    NEXT(clock_gettime);
    int64_t microseconds;
    int realtime = clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE;
    if ((realtime || is_monotonic(clock)) && simulated_now(&microseconds, !realtime)) {
        ts->tv_sec = (time_t)(microseconds / 1000000);
        ts->tv_nsec = (long)(microseconds % 1000000) * 1000;
        return 0;
    }
    return next_clock_gettime(clock, ts);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz) {
    NEXT(gettimeofday);
    int64_t microseconds;
    if (simulated_now(&microseconds, 0)) {
        tv->tv_sec = (time_t)(microseconds / 1000000);
        tv->tv_usec = (suseconds_t)(microseconds % 1000000);
        return 0;
    }
    return next_gettimeofday(tv, tz);
}

time_t time(time_t *out) {
    NEXT(time);
    int64_t microseconds;
    if (!simulated_now(&microseconds, 0)) return next_time(out);
    time_t seconds = (time_t)(microseconds / 1000000);
    if (out != NULL) *out = seconds;
    return seconds;
}

ssize_t getrandom(void *buffer, size_t count, unsigned int flags) {
    NEXT(getrandom);
    if (simulated_random(buffer, count)) return (ssize_t)count;
    return next_getrandom(buffer, count, flags);
}

int getentropy(void *buffer, size_t count) {
    NEXT(getentropy);
    if (simulated_random(buffer, count)) return 0;
    return next_getentropy(buffer, count);
}

void arc4random_buf(void *buffer, size_t count) {
    NEXT(arc4random_buf);
    if (!simulated_random(buffer, count)) next_arc4random_buf(buffer, count);
}

uint32_t arc4random(void) {
    NEXT(arc4random);
    uint32_t value;
    if (simulated_random(&value, sizeof value)) return value;
    return next_arc4random();
}

/// Whether `fd` is /dev/urandom or /dev/random (character devices 1:9 and 1:8).
static int is_random_device(int fd) {
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISCHR(status.st_mode)) return 0;
    return major(status.st_rdev) == 1 && (minor(status.st_rdev) == 9
        || minor(status.st_rdev) == 8);
}

ssize_t read(int fd, void *buffer, size_t count) {
    NEXT(read);
    if (device_active && is_random_device(fd) && simulated_random(buffer, count)) {
        return (ssize_t)count;
    }
    return next_read(fd, buffer, count);
}

long syscall(long number, ...) {
    NEXT(syscall);
    va_list list;
    va_start(list, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(list, long);
    va_end(list);
    if (number == SYS_getrandom && simulated_random((void *)a[0], (size_t)a[1])) return a[1];
    return next_syscall(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
