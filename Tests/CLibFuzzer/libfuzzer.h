#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver, for programs with a main of their own; linked in by -sanitize=fuzzer. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));
