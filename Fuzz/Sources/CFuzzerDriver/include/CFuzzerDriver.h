// libFuzzer's entry for programs with their own main (compiler-rt, FuzzerDriver.cpp),
// and a memory file for targets whose parser opens a path.
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));

static inline int fuzz_memory_file(void) { return memfd_create("fuzz-input", 0); }
