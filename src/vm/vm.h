/*
** vm.h -- the bytecode VM's extras beyond the game interface.
*/
#ifndef GSOLVE_VM_H
#define GSOLVE_VM_H

#include "compiler/program.h"
#include "vm/aot_rt.h"

#ifndef VM_MAX_STEPS              /* the fuzz build lowers it */
#define VM_MAX_STEPS 10000000   /* loop iterations and calls per rule run */
#endif

#ifdef VM_FUZZ_BUDGET
/* The fuzz build (-DVM_FUZZ_BUDGET): the steps and rule runs one input may
** take in all, set by a harness before each input (0: no budget).  A game
** whose every move generation is long (a mutated paper soccer's bounce
** paths: 10 s of a fuzz build under 2000 search nodes) fails as if a rule
** had, instead of timing the harness out. */
extern long vm_fuzz_budget;
#endif

/* The hash recomputed from the whole state (tests check it against the
** incremental one). */
/* A fresh VM engine at the game's start position; NULL when out of memory
** (*status EXIT_LIMIT) or when the start block failed at run time
** (*status EXIT_RUNTIME, the error already reported). */
Game *vm_new(const Program *p, int *status);
void vm_free(Game *g);
/* The same engine running the rules through a compiled module (the
** compiled tier, src/engines/compiled): m's functions replace the
** interpreter; release(handle) runs when the engine is freed, or at once
** when vm_new_compiled fails. */
Game *vm_new_compiled(const Program *p, const AotModule *m, void *handle, void (*release)(void *handle),
                      int *status);

uint64_t vm_hash_from_scratch(Game *g);

#endif
