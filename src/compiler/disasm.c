/*
** disasm.c -- the --dump-bytecode listing: one line per instruction with
** its source line, its operands and its synopsis from opcodes.def with the
** operands' values put in (as SQLite's EXPLAIN does), then what the
** operands name: a state array, a constant list, a function, a move rule.
*/
#include "compiler/program.h"
#include "compiler/opcodes.h"

#include <ctype.h>
#include <string.h>

#define OPCODE(name, shape, pops, pushes, syn) [OP_##name] = SHAPE_WORDS_##shape,
const unsigned char op_operands[OP__COUNT] = {
#include "compiler/opcodes.def"
};
#undef OPCODE
#define OPCODE(name, shape, pops, pushes, syn) [OP_##name] = SHAPE_##shape,
const unsigned char op_shape[OP__COUNT] = {
#include "compiler/opcodes.def"
};
#undef OPCODE
#define OPCODE(name, shape, pops, pushes, syn) [OP_##name] = #name,
const char *const op_names[OP__COUNT] = {
#include "compiler/opcodes.def"
};
#undef OPCODE
#define OPCODE(name, shape, pops, pushes, syn) [OP_##name] = syn,
const char *const op_synopsis[OP__COUNT] = {
#include "compiler/opcodes.def"
};
#undef OPCODE

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
    case CHUNK_VIEW: return "view of";
    default: return "function";
  }
}

/* ------------------------------------------------------------------ */
/* What the operands name: one helper per operand shape               */
/* ------------------------------------------------------------------ */

/* A state slot: heap[2], mover. */
static void note_slot(const Program *p, const int32_t *w, char *note, size_t n) {
  program_slot_name(p, w[0], note, n);
}

/* A state array by its first slot: heap. */
static void note_slots(const Program *p, const int32_t *w, char *note, size_t n) {
  for (int i = 0; i < p->nvars; i++)
    if (p->vars[i].base == w[0] && p->vars[i].ndims) { snprintf(note, n, "%s", p->vars[i].name); return; }
}

/* A constant list: its values, cut short when long. */
static void note_konst(const Program *p, const int32_t *w, char *note, size_t n) {
  size_t len = 0;
  for (int i = 0; i < w[1] && w[0] + i < p->nkonst && len + 16 < n; i++)
    len += (size_t)snprintf(note + len, n - len, "%s%d", i ? ", " : "[", p->konst[w[0] + i]);
  if (len + 16 >= n) snprintf(note + len, n - len, ", ...]");
  else if (len) snprintf(note + len, n - len, "]");
}

/* A function by its chunk index. */
static void note_call(const Program *p, const int32_t *w, char *note, size_t n) {
  if (w[0] >= 0 && w[0] < p->nchunks) snprintf(note, n, "%s()", p->chunks[w[0]].name);
}

/* A move rule by its index. */
static void note_emit(const Program *p, const int32_t *w, char *note, size_t n) {
  if (w[0] >= 0 && w[0] < p->nrules) snprintf(note, n, "move %s", p->rules[w[0]].name);
}

typedef void NoteFn(const Program *p, const int32_t *w, char *note, size_t n);

/* Shapes whose operands are plain numbers (values, locals, targets) have
** nothing to add. */
static NoteFn *const shape_note[SHAPE__COUNT] = {
  [SHAPE_SLOT] = note_slot, [SHAPE_SLOTS] = note_slots, [SHAPE_SLOTSL] = note_slots,
  [SHAPE_KONST] = note_konst, [SHAPE_CALL] = note_call, [SHAPE_EMIT] = note_emit,
};

/* The synopsis with each operand letter (A, B, C standing alone) replaced
** by the operand's value. */
static void fill_synopsis(const char *syn, const int32_t *w, int nw, char *out, size_t n) {
  size_t len = 0;
  for (const char *s = syn; *s && len + 1 < n; s++) {
    int k = *s - 'A';
    int alone = (s == syn || !isalnum((unsigned char)s[-1])) && !isalnum((unsigned char)s[1]);
    if (k >= 0 && k < nw && alone) {
      int m = snprintf(out + len, n - len, "%d", (int)w[k]);
      if (m > 0) len += (size_t)m;
      if (len >= n) len = n - 1;
    } else {
      out[len++] = *s;
    }
  }
  out[len] = 0;
}

/* One instruction at pc; returns the pc of the next one. */
static int list_instruction(const Program *p, const Diag *d, int pc, int *last_line, FILE *out) {
  int op = p->code[pc];
  if (op < 0 || op >= OP__COUNT) { fprintf(out, "%6d  ??? %d\n", pc, op); return pc + 1; }
  int nw = op_operands[op];
  int32_t w[3] = { 0, 0, 0 };
  char operands[40] = "", syn[192], note[96] = "";
  for (int i = 0; i < nw && pc + 1 + i < p->ncode; i++) {
    w[i] = p->code[pc + 1 + i];
    size_t len = strlen(operands);
    snprintf(operands + len, sizeof operands - len, "%s%d", i ? " " : "", (int)w[i]);
  }
  fill_synopsis(op_synopsis[op], w, nw, syn, sizeof syn);
  if (shape_note[op_shape[op]]) shape_note[op_shape[op]](p, w, note, sizeof note);
  int line, col;
  diag_line_col(d, p->pos[pc], &line, &col);
  if (line != *last_line) fprintf(out, "%6d %4d  ", pc, line);
  else fprintf(out, "%6d    |  ", pc);
  *last_line = line;
  fprintf(out, "%-8s %-12s ; %s%s%s\n", op_names[op], operands, syn, *note ? "  -- " : "", note);
  return pc + 1 + nw;
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
    fprintf(out, "\n%s '%s'  (code %d..%d, %d locals, %d args, stack %d)\n", chunk_kind(c->kind),
            c->name, c->start, c->end - 1, c->nlocals, c->nparams, c->maxstack);
    if (c->kind == CHUNK_LEGALITY) continue;    /* listed inside the generator */
    int last_line = -1;
    for (int pc = c->start; pc < c->end;) pc = list_instruction(p, &d, pc, &last_line, out);
  }
}
