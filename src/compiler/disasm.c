/*
** disasm.c -- the --dump-bytecode listing: one line per instruction with
** its source line and the opcode's synopsis from opcodes.h.
*/
#include "compiler/program.h"
#include "compiler/opcodes.h"

#include <string.h>

#define OPCODE_OPERANDS(name, n, syn) n,
#define OPCODE_NAME(name, n, syn) #name,
#define OPCODE_SYNOPSIS(name, n, syn) syn,
const unsigned char op_operands[OP__COUNT] = { OPCODE_LIST(OPCODE_OPERANDS) };
const char *const op_names[OP__COUNT] = { OPCODE_LIST(OPCODE_NAME) };
const char *const op_synopsis[OP__COUNT] = { OPCODE_LIST(OPCODE_SYNOPSIS) };

static const char *chunk_kind(ChunkKind k) {
  switch (k) {
    case CHUNK_GENERATE: return "generator";
    case CHUNK_LEGALITY: return "legality of move";
    case CHUNK_EFFECT: return "move";
    case CHUNK_END: return "end";
    case CHUNK_NOMOVES: return "nomoves";
    case CHUNK_EVAL: return "eval";
    case CHUNK_BOUND: return "bound";
    case CHUNK_START: return "start";
    case CHUNK_WEIGHT: return "weight";
    default: return "function";
  }
}

void gs_disassemble(const Program *p, FILE *out) {
  Diag d;
  diag_init(&d, p->filename, p->source, p->source_len, out);
  fprintf(out, "; game \"%s\": %d player(s), %d state slots, %d code words, %d constants\n",
          p->name, p->nplayers, p->nslots, p->ncode, p->nkonst);
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    fprintf(out, "; state %-12s slots %d..%d  values %d..%d\n", v->name, v->base,
            v->base + (v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1]) - 1,
            v->elem.lo, v->elem.hi);
  }
  if (p->nsym > 1 || p->npermute)
    fprintf(out, "; symmetry group: %d board element(s), %d permutable array(s)\n", p->nsym, p->npermute);
  for (int ci = 0; ci < p->nchunks; ci++) {
    const Chunk *c = &p->chunks[ci];
    fprintf(out, "\n%s '%s'  (code %d..%d, %d locals, %d args)\n", chunk_kind(c->kind), c->name,
            c->start, c->end - 1, c->nlocals, c->nparams);
    if (c->kind == CHUNK_LEGALITY) continue;    /* listed inside the generator */
    int last_line = -1;
    for (int pc = c->start; pc < c->end;) {
      int op = p->code[pc];
      if (op < 0 || op >= OP__COUNT) { fprintf(out, "%6d  ??? %d\n", pc, op); pc++; continue; }
      int line, col;
      diag_line_col(&d, p->pos[pc], &line, &col);
      char operands[32] = "";
      if (op_operands[op] == 1) snprintf(operands, sizeof operands, "%d", p->code[pc + 1]);
      if (op_operands[op] == 2) snprintf(operands, sizeof operands, "%d %d", p->code[pc + 1], p->code[pc + 2]);
      if (op_operands[op] == 3)
        snprintf(operands, sizeof operands, "%d %d %d", p->code[pc + 1], p->code[pc + 2], p->code[pc + 3]);
      if (line != last_line) fprintf(out, "%6d %4d  ", pc, line);
      else fprintf(out, "%6d    |  ", pc);
      last_line = line;
      fprintf(out, "%-8s %-12s ; %s\n", op_names[op], operands, op_synopsis[op]);
      pc += 1 + op_operands[op];
    }
  }
}
