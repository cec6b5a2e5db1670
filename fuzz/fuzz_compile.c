/*
** fuzz_compile.c -- libFuzzer harness: parse, check and compile an input
** as a .game file, then disassemble and dump the tree of what compiles.
** Nothing runs: fuzz_pipeline.c runs the rules.
**
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <stdint.h>
#include <stdio.h>
#include "gsolve.h"

int fuzz_compile_one(const uint8_t *data, size_t size) {
  FILE *devnull = fopen("/dev/null", "w");
  if (!devnull) return 0;
  int status;
  Program *p = gs_compile("fuzz.game", (const char *)data, size, NULL, 0, devnull, &status);
  if (p) {
    gs_disassemble(p, devnull);
    gs_dump_ast(p, devnull);
    gs_write_params_json(p, devnull);
    gs_write_params_text(p, devnull);
    (void)gs_rules_hash(p);
    gs_program_free(p);
  }
  fclose(devnull);
  return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_compile_one(data, size);
}
#endif
