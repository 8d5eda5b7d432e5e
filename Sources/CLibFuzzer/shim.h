// libFuzzer's driver, for a program with a main of its own (alicia-fuzz: SwiftPM links every
// executable with `--defsym main=<module>_main`, so libFuzzer's main never runs). Only defined when
// linked with -sanitize=fuzzer; alicia-fuzz calls it only when built so (ALICIA_FUZZ).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
