#ifndef SYNCLAB_CONCURRENCY_HOOK_SHIM_H
#define SYNCLAB_CONCURRENCY_HOOK_SHIM_H

/// The addresses of the Swift runtime's executor hooks, each a variable holding a function
/// pointer. Named at link time, so they are found whether the runtime is linked dynamically
/// or statically (a static runtime exports no symbol a `dlsym` could find).
void **synclab_enqueue_global_hook(void);
void **synclab_get_main_executor_hook(void);

#endif
