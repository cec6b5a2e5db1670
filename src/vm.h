/*
** vm.h -- the bytecode VM's extras beyond the game interface.
*/
#ifndef GSOLVE_VM_H
#define GSOLVE_VM_H

#include "program.h"

#define VM_MAX_STEPS 10000000   /* loop iterations and calls per rule run */

/* The hash recomputed from the whole state (tests check it against the
** incremental one). */
uint64_t vm_hash_from_scratch(Game *g);
/* The canonical form of the current state under the declared symmetries,
** into out[0..nslots) (out must have room for 2 * nslots). */
void vm_canonical(Game *g, int32_t *out);
/* 1 if the game declares symmetries. */
int vm_symmetry_count(Game *g);

#endif
