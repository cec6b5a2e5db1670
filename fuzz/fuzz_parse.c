/*
** fuzz_parse.c -- libFuzzer harness: the Flex lexer and the Bison parser
** alone, on any bytes, with the syntax tree dumped when the parse succeeds.
**
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "lang/ast.h"

int fuzz_parse_one(const uint8_t *data, size_t size) {
  FILE *devnull = fopen("/dev/null", "w");
  if (!devnull) return 0;
  Diag d;
  diag_init(&d, "fuzz.game", (const char *)data, size, devnull);
  ParseState ps;
  memset(&ps, 0, sizeof ps);
  ps.arena = arena_new();
  ps.diag = &d;
  if (ps.arena) {
    Node *root = ast_parse(&ps, (const char *)data, size);
    if (root && d.errors == 0) ast_dump(root, 0, devnull);
    arena_free(ps.arena);
  }
  fclose(devnull);
  return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_parse_one(data, size);
}
#endif
