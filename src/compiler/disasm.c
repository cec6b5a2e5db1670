/*
** disasm.c -- the --dump-bytecode listing: one line per instruction with
** its source line, its operands and its synopsis from opcodes.def with the
** operands' values put in (as SQLite's EXPLAIN does), then what the
** operands name: a state array, a constant list, a function, a move rule.
*/
#include "compiler/program.h"
#include "compiler/opcodes.h"
#include "util/json.h"

#include <ctype.h>
#include <string.h>

#define OPCODE(name, shape, pops, pushes, flow, syn) [OP_##name] = SHAPE_WORDS_##shape,
const unsigned char op_operands[OP__COUNT] = {
#include "compiler/opcodes.def"
};
#undef OPCODE
#define OPCODE(name, shape, pops, pushes, flow, syn) [OP_##name] = SHAPE_##shape,
const unsigned char op_shape[OP__COUNT] = {
#include "compiler/opcodes.def"
};
#undef OPCODE
#define OPCODE(name, shape, pops, pushes, flow, syn) [OP_##name] = #name,
const char *const op_names[OP__COUNT] = {
#include "compiler/opcodes.def"
};
#undef OPCODE
#define OPCODE(name, shape, pops, pushes, flow, syn) [OP_##name] = syn,
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
    case CHUNK_VALID: return "valid";
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

/* A jump on a state slot (operand C): heap[2], mover. */
static void note_jump_slot(const Program *p, const int32_t *w, char *note, size_t n) {
  program_slot_name(p, w[2], note, n);
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
  [SHAPE_SLOTSK] = note_slots, [SHAPE_SLOTK] = note_slot, [SHAPE_SLOTSS] = note_slots,
  [SHAPE_JUMPSK] = note_jump_slot, [SHAPE_KONST] = note_konst, [SHAPE_CALL] = note_call,
  [SHAPE_EMIT] = note_emit, [SHAPE_EMITK] = note_emit, [SHAPE_XYLK] = note_slots,
};

/* The synopsis with each operand letter (A to D standing alone) replaced
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

/* One instruction, decoded for either listing. */
typedef struct Decoded {
  int op;                   /* the opcode; -1: not one */
  int nw;                   /* operand words */
  int32_t w[4];             /* their values */
  int line;                 /* its source line */
  char syn[192], note[96];  /* the synopsis filled in; what operands name */
} Decoded;

/* Decodes the instruction at pc; returns the pc of the next one. */
static int decode(const Program *p, const Diag *d, int pc, Decoded *x) {
  int col;
  memset(x, 0, sizeof *x);
  x->op = p->code[pc];
  diag_line_col(d, p->pos[pc], &x->line, &col);
  if (x->op < 0 || x->op >= OP__COUNT) return pc + 1;
  x->nw = op_operands[x->op];
  for (int i = 0; i < x->nw && pc + 1 + i < p->ncode; i++) x->w[i] = p->code[pc + 1 + i];
  fill_synopsis(op_synopsis[x->op], x->w, x->nw, x->syn, sizeof x->syn);
  if (shape_note[op_shape[x->op]]) shape_note[op_shape[x->op]](p, x->w, x->note, sizeof x->note);
  return pc + 1 + x->nw;
}

/* One instruction at pc as a line; returns the pc of the next one. */
static int list_instruction(const Program *p, const Diag *d, int pc, int *last_line, FILE *out) {
  Decoded x;
  int next = decode(p, d, pc, &x);
  if (x.op < 0 || x.op >= OP__COUNT) { fprintf(out, "%6d  ??? %d\n", pc, x.op); return next; }
  char operands[40] = "";
  for (int i = 0; i < x.nw; i++) {
    size_t len = strlen(operands);
    snprintf(operands + len, sizeof operands - len, "%s%d", i ? " " : "", (int)x.w[i]);
  }
  if (x.line != *last_line) fprintf(out, "%6d %4d  ", pc, x.line);
  else fprintf(out, "%6d    |  ", pc);
  *last_line = x.line;
  fprintf(out, "%-8s %-12s ; %s%s%s\n", op_names[x.op], operands, x.syn, *x.note ? "  -- " : "",
          x.note);
  return next;
}

/* One instruction at pc as a JSON object; returns the pc of the next. */
static int json_instruction(const Program *p, const Diag *d, int pc, JsonWriter *j) {
  Decoded x;
  int next = decode(p, d, pc, &x);
  int known = x.op >= 0 && x.op < OP__COUNT;
  json_begin_object(j);
  json_key(j, "pc"); json_int(j, pc);
  json_key(j, "line"); json_int(j, x.line);
  json_key(j, "op");
  if (known) json_string(j, op_names[x.op]);
  else json_null(j);
  json_key(j, "operands"); json_begin_array(j);
  for (int i = 0; i < x.nw; i++) json_int(j, x.w[i]);
  json_end_array(j);
  json_key(j, "synopsis"); json_string(j, x.syn);
  json_key(j, "note"); json_string(j, x.note);
  json_end_object(j);
  return next;
}

/* The slots a state variable takes. */
static int var_slots(const StateVar *v) {
  return v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
}

void gs_disassemble_json(const Program *p, FILE *out) {
  Diag d;
  JsonWriter j;
  diag_init(&d, p->filename, p->source, p->source_len, out);
  json_init(&j, out);
  json_begin_object(&j);
  json_key(&j, "game"); json_string(&j, p->name);
  json_key(&j, "players"); json_int(&j, p->nplayers);
  json_key(&j, "slots"); json_int(&j, p->nslots);
  json_key(&j, "code_words"); json_int(&j, p->ncode);
  json_key(&j, "constants"); json_int(&j, p->nkonst);
  json_key(&j, "state"); json_begin_array(&j);
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    json_begin_object(&j);
    json_key(&j, "name"); json_string(&j, v->name);
    json_key(&j, "slots"); json_begin_array(&j);
    json_int(&j, v->base); json_int(&j, v->base + var_slots(v) - 1);
    json_end_array(&j);
    json_key(&j, "values"); json_begin_array(&j);
    json_int(&j, v->elem.lo); json_int(&j, v->elem.hi);
    json_end_array(&j);
    json_end_object(&j);
  }
  json_end_array(&j);
  json_key(&j, "symmetry_elements"); json_int(&j, p->nsym);
  json_key(&j, "permutable_arrays"); json_int(&j, p->npermute);
  json_key(&j, "chunks"); json_begin_array(&j);
  for (int ci = 0; ci < p->nchunks; ci++) {
    const Chunk *c = &p->chunks[ci];
    json_begin_object(&j);
    json_key(&j, "kind"); json_string(&j, chunk_kind(c->kind));
    json_key(&j, "name"); json_string(&j, c->name);
    json_key(&j, "start"); json_int(&j, c->start);
    json_key(&j, "end"); json_int(&j, c->end);
    json_key(&j, "locals"); json_int(&j, c->nlocals);
    json_key(&j, "args"); json_int(&j, c->nparams);
    json_key(&j, "stack"); json_int(&j, c->maxstack);
    /* A legality chunk's code lies inside its generator's, listed there. */
    json_key(&j, "code");
    if (c->kind == CHUNK_LEGALITY) {
      json_null(&j);
    } else {
      json_begin_array(&j);
      for (int pc = c->start; pc < c->end;) pc = json_instruction(p, &d, pc, &j);
      json_end_array(&j);
    }
    json_end_object(&j);
  }
  json_end_array(&j);
  json_end_object(&j);
  fputc('\n', out);
}

void gs_disassemble(const Program *p, FILE *out) {
  Diag d;
  diag_init(&d, p->filename, p->source, p->source_len, out);
  fprintf(out, "; game \"%s\": %d player(s), %d state slots, %d code words, %d constants\n",
          p->name, p->nplayers, p->nslots, p->ncode, p->nkonst);
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    fprintf(out, "; state %-12s slots %d..%d  values %d..%d\n", v->name, v->base,
            v->base + var_slots(v) - 1,
            v->elem.lo, v->elem.hi);
  }
  if (p->outcome_slot)
    fprintf(out, "; hidden: slots %d..%d, the outcome a move declared (a flag, then the payoffs)\n",
            p->outcome_slot, p->outcome_slot + p->nplayers);
  if (p->pass_slot)
    fprintf(out, "; hidden: slot %d, the passes in a row (nomoves pass)\n", p->pass_slot);
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
