#include "ConcurrencyHookShim.h"

// Declared without their function types: only their addresses are taken here.
extern void *swift_task_enqueueGlobal_hook;
extern void *swift_task_getMainExecutor_hook;

void **synclab_enqueue_global_hook(void) { return &swift_task_enqueueGlobal_hook; }

void **synclab_get_main_executor_hook(void) { return &swift_task_getMainExecutor_hook; }
