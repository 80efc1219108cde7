#ifndef SYNCLAB_CONCURRENCY_HOOK_SHIM_H
#define SYNCLAB_CONCURRENCY_HOOK_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// The addresses of the Swift runtime's executor hooks, each a variable holding a function
/// pointer. Named at link time, so they are found whether the runtime is linked dynamically
/// or statically (a static runtime exports no symbol a `dlsym` could find).
void **synclab_enqueue_global_hook(void);
void **synclab_get_main_executor_hook(void);

/// The running device's clocks: its wall clock in microseconds since 1970 and its uptime in
/// microseconds (what monotonic clocks read); 0 when no device runs.
typedef int (*synclab_device_now)(int64_t *wall, int64_t *uptime);
/// Fills a buffer from the running device's seeded stream; 0 when none runs.
typedef int (*synclab_device_random)(void *buffer, size_t count);

/// Where `Date()`, `UUID()` and the system's random numbers come from while a device's code
/// runs (DeviceSystemCalls.c); set once per process.
void synclab_set_device_sources(synclab_device_now now, synclab_device_random random);

/// Whether the calling thread drains a device's jobs now.
void synclab_set_device_active(int active);

#endif
