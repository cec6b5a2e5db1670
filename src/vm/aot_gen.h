/*
** aot_gen.h -- the compiled tier's translator (aot_gen.c): a game's
** bytecode as one C file, which src/engines/compiled builds and loads.
*/
#ifndef GSOLVE_AOT_GEN_H
#define GSOLVE_AOT_GEN_H

#include <stddef.h>
#include "compiler/program.h"

/* The text of src/vm/aot_rt.h, embedded at build time (Makefile:
** build/aot_rt_text.c), which starts every generated file. */
extern const char aot_rt_text[];

/* The C translation of p's chunks (malloc'd, len bytes, NUL-terminated),
** exporting gsolve_aot_module(), *status EXIT_OK; else NULL with the
** reason in why and *status EXIT_USAGE (the code is beyond what the tier
** translates) or EXIT_LIMIT (out of memory). */
char *aot_generate(const Program *p, size_t *len, char *why, size_t n, int *status);

#endif
