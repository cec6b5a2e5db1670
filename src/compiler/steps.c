/*
** steps.c -- moves of several steps: which rules' effects may say
** `continue move` (the mover makes another step of the same move) or
** `priority e` (only a position's moves of the highest priority are
** legal), directly or in a function they call.
**
** The VM's generator plays the moves of those rules (and only those) to
** find the whole moves they start (vm/vm_chain.c); every other rule's
** move is one step of priority 0, as it was generated.
*/
#include "compiler/compile_int.h"
#include "compiler/opcodes.h"

#include <stdlib.h>

/* The chunk whose code holds pc (functions and effects do not overlap). */
static int chunk_of(const Program *p, int pc) {
  for (int i = 0; i < p->nchunks; i++)
    if (p->chunks[i].kind != CHUNK_LEGALITY && pc >= p->chunks[i].start && pc < p->chunks[i].end) return i;
  return -1;
}

int compile_steps(Program *p, Diag *d) {
  if (!p->has_steps) return 1;
  /* Step 1. The chunks that say it themselves. */
  uint8_t *says = calloc((size_t)p->nchunks + 1, 1);
  if (!says) return 0;
  for (int pc = 0; pc < p->ncode; pc += 1 + op_operands[p->code[pc]]) {
    int op = p->code[pc];
    if (op != OP_CONTMOVE && op != OP_PRIORITY) continue;
    int ci = chunk_of(p, pc);
    if (ci >= 0) says[ci] = 1;
  }
  /* Step 2. Callers of such chunks, until nothing changes (CALL's
  ** operand is a chunk index by now). */
  for (int changed = 1; changed;) {
    changed = 0;
    for (int ci = 0; ci < p->nchunks; ci++) {
      const Chunk *ch = &p->chunks[ci];
      if (says[ci] || ch->kind == CHUNK_LEGALITY || ch->kind == CHUNK_GENERATE) continue;
      for (int pc = ch->start; pc < ch->end; pc += 1 + op_operands[p->code[pc]])
        if (p->code[pc] == OP_CALL && says[p->code[pc + 1]]) { says[ci] = changed = 1; break; }
    }
  }
  /* Step 3. The rules; a chance move is one step, drawn at random. */
  for (int ri = 0; ri < p->nrules; ri++) {
    MoveRule *r = &p->rules[ri];
    r->expands = says[r->effect];
    if (!r->expands || !r->chance) continue;
    const Chunk *ch = &p->chunks[r->effect];
    for (int pc = ch->start; pc < ch->end; pc += 1 + op_operands[p->code[pc]]) {
      int op = p->code[pc];
      if (op == OP_CONTMOVE || op == OP_PRIORITY || (op == OP_CALL && says[p->code[pc + 1]])) {
        Span at = { p->pos[pc], p->pos[pc] + 1 };
        diag_error(d, at, "a chance move is one step: its effect cannot say 'continue move' or 'priority'%s",
                   op == OP_CALL ? " (the function called here does)" : "");
        break;
      }
    }
  }
  free(says);
  return 1;
}
