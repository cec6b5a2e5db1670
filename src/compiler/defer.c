/*
** defer.c -- what a move's effect may leave for later: the statements at
** the end of an effect that only set what the end test (or eval, nomoves,
** bound) reads, and that cannot fail, go after a DEFER instruction.  The
** VM then stops there when it plays the move, and runs the rest only when
** the position is next looked at; a move taken back before that (perft's
** last ply) never runs it.  Connect Four's `winner = mover` after a line
** of four is such a tail: perft never asks for it.
**
** Generic, on the bytecode of any game: a forward interval analysis of
** each effect (the values every local and stack entry may hold before
** each instruction) proves that no instruction of the tail can fail (an
** index, a cell, a direction, an overflow, a slot's range), and bounds
** the steps its counted loops take, which DEFER carries so that the VM
** defers only when the step budget cannot run out in the tail.  So the
** results, the runtime errors and their messages are the same whether a
** tail runs at once or later, or never (docs/performance.md).
*/
#include "compiler/compile_int.h"

#include <stdlib.h>
#include <string.h>

#define DEFER_MAX_VALUES 256     /* locals + operand stack analysed per effect */
#define DEFER_MAX_WORDS  20000   /* code words of an effect analysed */
#define DEFER_WIDEN      24      /* visits of an instruction before widening */
#define DEFER_MIN_WORDS  32      /* a tail without loops or scans: at least */

/* The values a local or stack entry may hold (lo > hi: none, not
** reached); a stack entry loaded from local src - 1 and not written since
** (0: none) narrows that local too when an instruction checks it. */
typedef struct Iv { int64_t lo, hi; int src; } Iv;

static const Iv FULL = { INT32_MIN, INT32_MAX, 0 };

static Iv iv(int64_t lo, int64_t hi) {
  Iv r = { lo < INT32_MIN ? INT32_MIN : lo, hi > INT32_MAX ? INT32_MAX : hi, 0 };
  if (lo > INT32_MAX || hi < INT32_MIN) r = FULL;   /* wrapped: anything */
  return r;
}
static int fits(Iv v, int64_t lo, int64_t hi) { return v.lo >= lo && v.hi <= hi; }
static int64_t min4(int64_t a, int64_t b, int64_t c, int64_t d) {
  int64_t m = a < b ? a : b; m = m < c ? m : c; return m < d ? m : d;
}
static int64_t max4(int64_t a, int64_t b, int64_t c, int64_t d) {
  int64_t m = a > b ? a : b; m = m > c ? m : c; return m > d ? m : d;
}

/* The analysis of one effect chunk. */
typedef struct Flow {
  const Program *p;
  int start, end;         /* code range */
  int nlocals, nvals;     /* locals, locals + maxstack */
  Iv *in;                 /* (end - start) x nvals: before each instruction */
  int *height;            /* operand height before each instruction, -1 unreached */
  int *visits;
  int *work, nwork;       /* instructions whose state grew */
  uint8_t *queued;        /* on the work list */
  uint8_t *fail;          /* the instruction may fail (from its state in) */
  int nparams;            /* arguments: locals 0..nparams-1 */
} Flow;

/* The values a run of slots may hold. */
static Iv slots_iv(const Program *p, int a, int n) {
  if (a < 0 || n <= 0 || a + n > p->nslots) return FULL;
  int64_t lo = p->lo[a], hi = p->hi[a];
  for (int i = a + 1; i < a + n; i++) {
    if (p->lo[i] < lo) lo = p->lo[i];
    if (p->hi[i] > hi) hi = p->hi[i];
  }
  return iv(lo, hi);
}

/* The range every slot of a run accepts (for a store through an index). */
static Iv slots_common(const Program *p, int a, int n) {
  if (a < 0 || n <= 0 || a + n > p->nslots) return iv(1, 0);
  int64_t lo = p->lo[a], hi = p->hi[a];
  for (int i = a + 1; i < a + n; i++) {
    if (p->lo[i] > lo) lo = p->lo[i];
    if (p->hi[i] < hi) hi = p->hi[i];
  }
  Iv r = { lo, hi, 0 };
  return r;
}

static int cell_ok(const Program *p, Iv c) { return p->step && fits(c, 0, p->ncells - 1); }

/* Joins `v` into the state before instruction t (height h); queues t when
** it grew. */
static void flow_join(Flow *f, int t, const Iv *v, int h, int *bad) {
  if (t < f->start || t >= f->end) { *bad = 1; return; }
  int k = t - f->start;
  Iv *in = f->in + (size_t)k * (size_t)f->nvals;
  int n = f->nlocals + h, grew = 0;
  if (f->height[k] < 0) {
    f->height[k] = h;
    memcpy(in, v, (size_t)n * sizeof *in);
    grew = 1;
  } else {
    if (f->height[k] != h) { *bad = 1; return; }
    int widen = ++f->visits[k] > DEFER_WIDEN;
    for (int i = 0; i < n; i++) {
      if (v[i].src != in[i].src && in[i].src) { in[i].src = 0; grew = 1; }
      if (v[i].lo < in[i].lo) { in[i].lo = widen ? INT32_MIN : v[i].lo; grew = 1; }
      if (v[i].hi > in[i].hi) { in[i].hi = widen ? INT32_MAX : v[i].hi; grew = 1; }
    }
  }
  if (grew && !f->queued[k]) { f->queued[k] = 1; f->work[f->nwork++] = t; }
}

/* Local l was written: the stack's copies of it are copies no more. */
static void forget(const Flow *f, Iv *v, int h, int l) {
  for (int i = f->nlocals; i < f->nlocals + h; i++)
    if (v[i].src == l + 1) v[i].src = 0;
}

/* A check of x passed: the local x was loaded from lies in lo..hi. */
static void narrow(Iv *v, Iv x, int64_t lo, int64_t hi) {
  if (!x.src) return;
  Iv *l = &v[x.src - 1];
  if (l->lo < lo) l->lo = lo;
  if (l->hi > hi) l->hi = hi;
}

/* Runs instruction pc on the state v (in place: the state after it when
** it falls through); `jump` gets the state when it jumps (FORK and FORL
** refine the counter).  Sets f->fail[pc].  Returns the height after it. */
static int flow_step(Flow *f, int pc, Iv *v, int h, Iv *jump) {
  const Program *p = f->p;
  const int32_t *code = p->code;
  int op = code[pc];
  int32_t A = op_operands[op] > 0 ? code[pc + 1] : 0, B = op_operands[op] > 1 ? code[pc + 2] : 0;
  int32_t C = op_operands[op] > 2 ? code[pc + 3] : 0, D = op_operands[op] > 3 ? code[pc + 4] : 0;
  Iv *L = v, *S = v + f->nlocals;
  int fail = 0, R = op == OP_CALL && A >= 0 && A < p->nchunks ? p->chunks[A].returns : 0;
  int pops = op_pops(op, A, B), pushes = op_pushes(op, A, B, R);
  Iv a = h >= 2 ? S[h - 2] : FULL, b = h >= 1 ? S[h - 1] : FULL, r = FULL;
  switch (op) {
    case OP_CONST: r = iv(A, A); break;
    case OP_DUP: S[h] = b; r = b; break;
    case OP_LOADL: r = A >= 0 && A < f->nlocals ? L[A] : FULL; r.src = A + 1; break;
    case OP_STOREL:
      if (A >= 0 && A < f->nlocals) { L[A] = b; L[A].src = 0; forget(f, v, h - 1, A); }
      break;
    case OP_LOADLI: case OP_STORELI: {
      Iv i = op == OP_LOADLI ? b : a;
      fail = !fits(i, 0, (int64_t)B - 1);
      narrow(v, i, 0, (int64_t)B - 1);
      if (op == OP_LOADLI) {
        r = iv(1, 0);
        for (int k = 0; k < B && k < f->nlocals - A; k++) {
          if (L[A + k].lo < r.lo) r.lo = L[A + k].lo;
          if (L[A + k].hi > r.hi) r.hi = L[A + k].hi;
        }
        if (r.lo > r.hi) r = FULL;
      } else {
        for (int k = 0; k < B && A + k < f->nlocals; k++)
          if (i.lo == i.hi && i.lo == k) L[A + k] = b;
          else if (i.lo <= k && k <= i.hi) {
            if (b.lo < L[A + k].lo) L[A + k].lo = b.lo;
            if (b.hi > L[A + k].hi) L[A + k].hi = b.hi;
          }
        for (int k = 0; k < B && A + k < f->nlocals; k++) { L[A + k].src = 0; forget(f, v, h - 2, A + k); }
      }
      break;
    }
    case OP_SETL: case OP_INCL: {
      Iv l = A >= 0 && A < f->nlocals ? L[A] : FULL;
      if (op == OP_INCL) fail = !fits((Iv){ l.lo + B, l.hi + B, 0 }, INT32_MIN, INT32_MAX);
      if (A >= 0 && A < f->nlocals) {
        L[A] = op == OP_SETL ? iv(B, B) : iv(l.lo + B, l.hi + B);
        forget(f, v, h, A);
      }
      break;
    }
    case OP_TEEL:
      if (A >= 0 && A < f->nlocals) { L[A] = b; L[A].src = 0; forget(f, v, h, A); }
      r = b;
      r.src = A + 1;
      break;
    case OP_CLEARL:
      for (int k = 0; k < B && A + k < f->nlocals; k++) { L[A + k] = iv(0, 0); forget(f, v, h, A + k); }
      break;
    case OP_LOADS: r = slots_iv(p, A, 1); break;
    case OP_STORES: fail = !fits(b, p->lo[A], p->hi[A]); narrow(v, b, p->lo[A], p->hi[A]); break;
    case OP_LOADSI: fail = !fits(b, 0, (int64_t)B - 1); narrow(v, b, 0, (int64_t)B - 1); r = slots_iv(p, A, B); break;
    case OP_STORESI: {
      Iv ok = slots_common(p, A, B);
      fail = !fits(a, 0, (int64_t)B - 1) || !fits(b, ok.lo, ok.hi);
      narrow(v, a, 0, (int64_t)B - 1);
      narrow(v, b, ok.lo, ok.hi);
      break;
    }
    case OP_LOADK: {
      fail = !fits(b, 0, (int64_t)B - 1);
      narrow(v, b, 0, (int64_t)B - 1);
      if (B > 0 && A >= 0 && A + B <= p->nkonst) {
        r = iv(p->konst[A], p->konst[A]);
        for (int k = 1; k < B; k++) {
          if (p->konst[A + k] < r.lo) r.lo = p->konst[A + k];
          if (p->konst[A + k] > r.hi) r.hi = p->konst[A + k];
        }
      }
      break;
    }
    case OP_CHECK:
      fail = !fits(b, 0, (int64_t)A - 1);
      r = iv(b.lo > 0 ? b.lo : 0, b.hi < (int64_t)A - 1 ? b.hi : (int64_t)A - 1);
      if (r.lo > r.hi) r = b;
      r.src = b.src;
      narrow(v, b, 0, (int64_t)A - 1);
      break;
    case OP_ADD: r = iv(a.lo + b.lo, a.hi + b.hi); fail = !fits((Iv){ a.lo + b.lo, a.hi + b.hi, 0 }, INT32_MIN, INT32_MAX); break;
    case OP_SUB: r = iv(a.lo - b.hi, a.hi - b.lo); fail = !fits((Iv){ a.lo - b.hi, a.hi - b.lo, 0 }, INT32_MIN, INT32_MAX); break;
    case OP_ADDK: r = iv(b.lo + A, b.hi + A); fail = !fits((Iv){ b.lo + A, b.hi + A, 0 }, INT32_MIN, INT32_MAX); break;
    case OP_LOADLK: {
      Iv l = A >= 0 && A < f->nlocals ? L[A] : FULL;
      r = iv(l.lo + B, l.hi + B);
      fail = !fits((Iv){ l.lo + B, l.hi + B, 0 }, INT32_MIN, INT32_MAX);
      break;
    }
    case OP_MUL: {
      int64_t lo = min4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi);
      int64_t hi = max4(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi);
      r = iv(lo, hi);
      fail = !fits((Iv){ lo, hi, 0 }, INT32_MIN, INT32_MAX);
      break;
    }
    case OP_DIV: case OP_MOD: {
      fail = (b.lo <= 0 && b.hi >= 0) || (a.lo == INT32_MIN && b.lo <= -1 && b.hi >= -1);
      int64_t m = a.lo < 0 ? -a.lo : a.lo;
      if ((a.hi < 0 ? -a.hi : a.hi) > m) m = a.hi < 0 ? -a.hi : a.hi;
      if (op == OP_DIV) r = iv(-m - 1, m + 1);
      else if (b.lo > 0) r = iv(0, b.hi - 1);
      else if (b.hi < 0) r = iv(b.lo + 1, 0);
      break;
    }
    case OP_NEG: r = iv(-b.hi, -b.lo); fail = b.lo == INT32_MIN; break;
    case OP_ABS: fail = b.lo == INT32_MIN;
      r = b.lo >= 0 ? b : b.hi <= 0 ? iv(-b.hi, -b.lo) : iv(0, -b.lo > b.hi ? -b.lo : b.hi);
      break;
    case OP_NOT: case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: r = iv(0, 1); break;
    case OP_MIN: r = iv(a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi); break;
    case OP_MAX: r = iv(a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi); break;
    case OP_STEP: case OP_LINE:
      fail = !cell_ok(p, a) || !fits(b, 0, 7);
      if (p->step) { narrow(v, a, 0, p->ncells - 1); narrow(v, b, 0, 7); }
      r = op == OP_STEP ? iv(-1, p->ncells - 1) : iv(1, p->ncells > 0 ? p->ncells : 1);
      break;
    case OP_AT: case OP_LOADSXY:
      fail = !fits(a, 0, (int64_t)p->width - 1) || !fits(b, 0, (int64_t)p->height - 1);
      narrow(v, a, 0, (int64_t)p->width - 1);
      narrow(v, b, 0, (int64_t)p->height - 1);
      r = op == OP_AT ? iv(0, p->ncells - 1) : slots_iv(p, A, B);
      break;
    case OP_STORESIS: {
      Iv ok = slots_common(p, A, B), val = slots_iv(p, C, 1);
      fail = !fits(b, 0, (int64_t)B - 1) || !fits(val, ok.lo, ok.hi);
      narrow(v, b, 0, (int64_t)B - 1);
      break;
    }
    case OP_ATL: {
      Iv y = A >= 0 && A < f->nlocals ? L[A] : FULL;
      fail = !fits(b, 0, (int64_t)p->width - 1) || !fits(y, 0, (int64_t)p->height - 1);
      narrow(v, b, 0, (int64_t)p->width - 1);
      if (A >= 0 && A < f->nlocals) narrow(v, (Iv){ 0, 0, A + 1 }, 0, (int64_t)p->height - 1);
      r = iv(0, p->ncells - 1);
      break;
    }
    case OP_INCS: {
      Iv s = slots_iv(p, A, 1);
      Iv n = { s.lo + B, s.hi + B, 0 };
      fail = !fits(n, INT32_MIN, INT32_MAX) || !fits(n, p->lo[A], p->hi[A]);
      break;
    }
    case OP_LOADSXYLK: case OP_ATLK: {
      /* x = local + k, y = local: the fused LOADLK's overflow, then AT's checks. */
      int xl = op == OP_ATLK ? A : C, yl = op == OP_ATLK ? C : B;
      int32_t k = op == OP_ATLK ? B : D;
      Iv xv = xl >= 0 && xl < f->nlocals ? L[xl] : FULL, y = yl >= 0 && yl < f->nlocals ? L[yl] : FULL;
      Iv x = { xv.lo + k, xv.hi + k, 0 };
      fail = !fits(x, INT32_MIN, INT32_MAX) || !fits(x, 0, (int64_t)p->width - 1) ||
             !fits(y, 0, (int64_t)p->height - 1);
      r = op == OP_ATLK ? iv(0, p->ncells - 1) : slots_iv(p, A, p->ncells);
      break;
    }
    case OP_LOADSXYL: case OP_LOADSXYK: {
      Iv y = op == OP_LOADSXYK ? iv(C, C) : C >= 0 && C < f->nlocals ? L[C] : FULL;
      fail = !fits(b, 0, (int64_t)p->width - 1) || !fits(y, 0, (int64_t)p->height - 1);
      narrow(v, b, 0, (int64_t)p->width - 1);
      if (op == OP_LOADSXYL && C >= 0 && C < f->nlocals) narrow(v, (Iv){ 0, 0, C + 1 }, 0, (int64_t)p->height - 1);
      r = slots_iv(p, A, B);
      break;
    }
    case OP_COLOF: case OP_ROWOF:
      fail = !cell_ok(p, b);
      if (p->step) narrow(v, b, 0, p->ncells - 1);
      r = op == OP_COLOF ? iv(0, p->width - 1) : iv(0, p->height - 1);
      break;
    case OP_LOADSL: {
      Iv i = C >= 0 && C < f->nlocals ? L[C] : FULL;
      fail = !fits(i, 0, (int64_t)B - 1);
      if (C >= 0 && C < f->nlocals) narrow(v, (Iv){ 0, 0, C + 1 }, 0, (int64_t)B - 1);
      r = slots_iv(p, A, B);
      break;
    }
    case OP_LINEK:
      fail = !cell_ok(p, b) || C < 0 || C > 7;
      if (p->step) narrow(v, b, 0, p->ncells - 1);
      r = iv(1, p->ncells > 0 ? p->ncells : 1);
      break;
    case OP_COUNTS: r = iv(0, B); break;
    case OP_SEES: {   /* a b v g: the two cells checked */
      Iv ca = h >= 4 ? S[h - 4] : FULL, cb = h >= 3 ? S[h - 3] : FULL;
      fail = !cell_ok(p, ca) || !cell_ok(p, cb);
      if (p->step) { narrow(v, ca, 0, p->ncells - 1); narrow(v, cb, 0, p->ncells - 1); }
      r = iv(0, 1);
      break;
    }
    case OP_FINDS: r = iv(-1, (int64_t)B - 1); break;
    case OP_TURN: fail = !fits(a, 0, 7); narrow(v, a, 0, 7); r = iv(0, 7); break;
    case OP_NEXTP: fail = !fits(b, 1, p->nplayers); narrow(v, b, 1, p->nplayers); r = iv(1, p->nplayers); break;
    case OP_FORL: case OP_FORK: {
      /* Jumps while local[A] < limit (then one more); falls through at or
      ** past it. */
      Iv lim = op == OP_FORK ? iv(B, B) : B >= 0 && B < f->nlocals ? L[B] : FULL;
      Iv c = A >= 0 && A < f->nlocals ? L[A] : FULL;
      memcpy(jump, v, (size_t)(f->nlocals + h) * sizeof *v);
      if (A >= 0 && A < f->nlocals) {
        Iv t = { c.lo, c.hi < lim.hi - 1 ? c.hi : lim.hi - 1, 0 };
        jump[A] = t.lo <= t.hi ? iv(t.lo + 1, t.hi + 1) : iv(1, 0);
        Iv s = { c.lo > lim.lo ? c.lo : lim.lo, c.hi, 0 };
        L[A] = s.lo <= s.hi ? s : c;
        L[A].src = 0;
        forget(f, v, h, A);
        forget(f, jump, h, A);
      }
      f->fail[pc - f->start] = 0;   /* the step budget: DEFER's bound */
      return h;
    }
    case OP_POP: case OP_JMP: case OP_JLT: case OP_JLE: case OP_JGT: case OP_JGE: case OP_JEQ: case OP_JNE:
    case OP_JLTK: case OP_JLEK: case OP_JGTK: case OP_JGEK: case OP_JEQK: case OP_JNEK: case OP_JMPF:
    case OP_JSEQK: case OP_JSNEK:
    case OP_JMPT: case OP_HALT:
      break;   /* they cannot fail */
    default:
      /* Anything else: its pops and pushes, values unknown; it is not
      ** allowed in a tail (defer_allowed), so whether it fails is moot. */
      fail = 1;
      break;
  }
  int nh = h - pops + pushes;
  if (pushes >= 1) S[nh - 1] = r;
  f->fail[pc - f->start] = (uint8_t)fail;
  memcpy(jump, v, (size_t)(f->nlocals + nh) * sizeof *v);
  return nh;
}

/* The fixpoint over chunk ci; 0 when the code is beyond the analysis, -1
** out of memory (which must fail the compilation: an analysis skipped
** would compile other code, and a database check on the rules' hash
** would tell them apart). */
static int flow_run(Flow *f) {
  const Program *p = f->p;
  const int32_t *code = p->code;
  int n = f->end - f->start, bad = 0;
  Iv *cur = malloc(2 * (size_t)f->nvals * sizeof *cur);
  if (!cur) return -1;
  Iv *jump = cur + f->nvals;
  for (int i = 0; i < f->nvals; i++) cur[i] = iv(0, 0);
  /* The arguments: whatever a Move holds (int16). */
  for (int i = 0; i < f->nparams && i < f->nlocals; i++) cur[i] = iv(INT16_MIN, INT16_MAX);
  for (int i = 0; i < n; i++) { f->height[i] = -1; f->visits[i] = 0; f->fail[i] = 1; f->queued[i] = 0; }
  flow_join(f, f->start, cur, 0, &bad);
  while (f->nwork > 0 && !bad) {
    int pc = f->work[--f->nwork], k = pc - f->start, op = code[pc];
    int h = f->height[k];
    f->queued[k] = 0;
    if (op < 0 || op >= OP__COUNT || pc + op_operands[op] >= f->end) { bad = 1; break; }
    int32_t A = op_operands[op] > 0 ? code[pc + 1] : 0, B = op_operands[op] > 1 ? code[pc + 2] : 0;
    int R = op == OP_CALL && A >= 0 && A < p->nchunks ? p->chunks[A].returns : 0;
    if (h < op_pops(op, A, B) || h - op_pops(op, A, B) + op_pushes(op, A, B, R) > f->nvals - f->nlocals) {
      bad = 1;
      break;
    }
    memcpy(cur, f->in + (size_t)k * (size_t)f->nvals, (size_t)f->nvals * sizeof *cur);
    int nh = flow_step(f, pc, cur, h, jump);
    if (op_ends_run(op)) continue;
    int t = op_jump_target(code, pc);
    if (t >= 0) flow_join(f, t, jump, nh, &bad);
    if (op != OP_JMP && op != OP_LOOP) flow_join(f, pc + 1 + op_operands[op], cur, nh, &bad);
  }
  free(cur);
  return !bad;
}

/* May the instruction run after DEFER?  No calls, no rare instructions,
** no loops but counted ones over constant bounds. */
static int defer_allowed(int op) {
  switch (op) {
    case OP_CONST: case OP_POP: case OP_DUP: case OP_LOADL: case OP_STOREL: case OP_LOADLI:
    case OP_STORELI: case OP_CLEARL: case OP_LOADS: case OP_STORES: case OP_LOADSI: case OP_STORESI:
    case OP_LOADK: case OP_CHECK: case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_MOD:
    case OP_NEG: case OP_NOT: case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
    case OP_ADDK: case OP_JMP: case OP_JLT: case OP_JLE: case OP_JGT: case OP_JGE: case OP_JEQ:
    case OP_JNE: case OP_JLTK: case OP_JLEK: case OP_JGTK: case OP_JGEK: case OP_JEQK: case OP_JNEK:
    case OP_JSEQK: case OP_JSNEK:
    case OP_LOADLK: case OP_LOADSL: case OP_LOADSXY: case OP_LOADSXYL: case OP_LOADSXYK: case OP_INCS: case OP_FORK:
    case OP_STORESIS: case OP_ATL: case OP_ATLK: case OP_LOADSXYLK:
    case OP_JMPF: case OP_JMPT:
    case OP_SETL: case OP_INCL: case OP_TEEL:
    case OP_STEP: case OP_AT: case OP_COLOF: case OP_ROWOF: case OP_LINE: case OP_LINEK: case OP_COUNTS:
    case OP_FINDS: case OP_TURN: case OP_NEXTP: case OP_ABS: case OP_MIN: case OP_MAX: case OP_HALT:
    case OP_SEES:
      return 1;
    default:
      return 0;
  }
}

/* The slots an instruction reads: [*a, *a + *n). */
static int reads_slots(const Program *p, int pc, int *a, int *n) {
  const int32_t *code = p->code;
  switch (code[pc]) {
    case OP_LOADSXYLK: *a = code[pc + 1]; *n = p->ncells; return 1;
    case OP_LOADS: case OP_INCS: *a = code[pc + 1]; *n = 1; return 1;
    case OP_JSEQK: case OP_JSNEK: *a = code[pc + 3]; *n = 1; return 1;
    case OP_STORESIS: *a = code[pc + 3]; *n = 1; return 1;
    case OP_LOADSI: case OP_LOADSL: case OP_LOADSXY: case OP_LOADSXYL: case OP_LOADSXYK: case OP_LINE:
    case OP_LINEK: case OP_COUNTS: case OP_FINDS: case OP_SEES:
      *a = code[pc + 1]; *n = code[pc + 2]; return 1;
    default: return 0;
  }
}

static int writes_slots(const int32_t *code, int pc, int *a, int *n) {
  switch (code[pc]) {
    case OP_STORES: case OP_INCS: *a = code[pc + 1]; *n = 1; return 1;
    case OP_STORESI: case OP_STORESIS: *a = code[pc + 1]; *n = code[pc + 2]; return 1;
    default: return 0;
  }
}

/* Is slot s a user variable's (not the mover, nor a hidden slot)? */
static int user_slot(const Program *p, int s) {
  for (int i = 0; i < p->nvars; i++) {
    const StateVar *v = &p->vars[i];
    int size = v->ndims == 0 ? 1 : v->ndims == 1 ? v->dim[0] : v->dim[0] * v->dim[1];
    if (s >= v->base && s < v->base + size) return 1;
  }
  return 0;
}

/* The tail of the analysed effect from q on: 1 with its step bound when
** it qualifies (see the file's comment). */
static int tail_ok(const Flow *f, int q, const uint8_t *outcome_only, int64_t *bound) {
  const Program *p = f->p;
  const int32_t *code = p->code;
  int writes = 0, scans = 0;
  *bound = 0;
  for (int pc = f->start; pc < f->end; pc++) {
    int k = pc - f->start;
    if (f->height[k] < 0) continue;
    int op = code[pc], t = op_jump_target(code, pc);
    if (pc < q) {   /* the eager part enters the tail only at q */
      if (t > q) return 0;
      continue;
    }
    if (!defer_allowed(op) || f->fail[k]) return 0;
    scans |= op == OP_FORK || op == OP_LINE || op == OP_LINEK || op == OP_COUNTS || op == OP_FINDS ||
             op == OP_SEES;
    if (t >= 0 && t < q) return 0;
    if (t >= 0 && t <= pc && op != OP_FORK) return 0;   /* back only by counted loops */
    int a, n;
    if (reads_slots(p, pc, &a, &n))
      for (int s = a; s < a + n; s++)
        if (s != 0 && !user_slot(p, s)) return 0;
    if (writes_slots(code, pc, &a, &n)) {
      writes = 1;
      for (int s = a; s < a + n; s++)
        if (s <= 0 || s >= p->nslots || !outcome_only[s] || !user_slot(p, s)) return 0;
    }
    if (op == OP_FORK) {
      /* A counted loop: entered only by falling into its head, its counter
      ** written by nothing in it; trips from the counter's least value. */
      int head = code[pc + 3], ctr = code[pc + 1];
      if (head < q) return 0;
      for (int x = head; x < pc; x++) {
        int kx = x - f->start;
        if (f->height[kx] < 0) continue;
        if (op_writes_local(code, x, ctr)) return 0;
      }
      for (int x = q; x < f->end; x++) {
        int kx = x - f->start, tx;
        if (f->height[kx] < 0 || (x >= head && x <= pc)) continue;
        if ((tx = op_jump_target(code, x)) >= head && tx <= pc) return 0;
      }
      const Iv *in = f->in + (size_t)k * (size_t)f->nvals;
      int64_t trips = (int64_t)code[pc + 2] - in[ctr].lo;
      if (trips < 0) trips = 0;
      if (trips > INT32_MAX) return 0;
      /* Nested in other counted loops: once per their passes. */
      int64_t times = 1;
      for (int y = q; y < f->end; y++) {
        int ky = y - f->start;
        if (f->height[ky] < 0 || code[y] != OP_FORK || y == pc) continue;
        if (code[y + 3] <= head && y >= pc) {
          const Iv *iy = f->in + (size_t)ky * (size_t)f->nvals;
          int64_t ty = (int64_t)code[y + 2] - iy[code[y + 1]].lo;
          times *= (ty < 0 ? 0 : ty) + 1;
          if (times > INT32_MAX) return 0;
        }
      }
      *bound += trips * times;
      if (*bound > INT32_MAX / 2) return 0;
    }
  }
  /* Worth stopping for: a loop or a board scan, or a long stretch (a few
  ** instructions cost less than keeping the locals and running later). */
  return writes && (scans || f->end - q >= DEFER_MIN_WORDS);
}

/* Inserts `DEFER bound` before the instruction at each point (sorted),
** moving every later instruction, jump target, chunk range and source
** position.  A jump to a point from before it lands on the DEFER, one
** from the tail after it.  0 out of memory. */
static int insert_defers(Program *p, const int *point, const int32_t *bound, int npoints) {
  int n = p->ncode, m = n + 2 * npoints;
  int32_t *code = malloc((size_t)m * sizeof *code), *pos = malloc((size_t)m * sizeof *pos);
  int *shift = malloc(((size_t)n + 1) * sizeof *shift);   /* words inserted before pc */
  if (!code || !pos || !shift) { free(code); free(pos); free(shift); return 0; }
  for (int pc = 0, k = 0; pc <= n; pc++) {
    while (k < npoints && point[k] < pc) k++;
    shift[pc] = 2 * k;
  }
  int k = 0;
  for (int pc = 0, w = 0; pc < n;) {
    if (k < npoints && point[k] == pc) {
      code[w] = OP_DEFER; code[w + 1] = bound[k];
      pos[w] = pos[w + 1] = p->pos[pc];
      w += 2;
      k++;
    }
    int op = p->code[pc], len = 1 + op_operands[op];
    for (int i = 0; i < len; i++) { code[w + i] = p->code[pc + i]; pos[w + i] = p->pos[pc + i]; }
    int ti = op_jump_operand(op), t = op_jump_target(p->code, pc);
    if (t >= 0 && t <= n) {
      /* The point's own tail (pc past it) jumps after the DEFER. */
      int is_point = 0, q = -1;
      for (int j = 0; j < npoints; j++) if (point[j] == t) is_point = 1, q = point[j];
      int after = is_point && pc >= q;
      code[w + ti] = t + shift[t] + (after ? 2 : 0);
    }
    w += len;
    pc += len;
  }
  for (int i = 0; i < p->nchunks; i++) {
    Chunk *c = &p->chunks[i];
    if (c->start >= 0 && c->start <= n) c->start += shift[c->start];
    if (c->end >= 0 && c->end <= n) c->end += shift[c->end];
  }
  free(p->code);
  free(p->pos);
  free(shift);
  p->code = code;
  p->pos = pos;
  p->ncode = m;
  return 1;
}

int compile_defer(Program *p) {
  if (p->nhidden > 0 || p->has_illegal || p->rep_kind != REP_NONE || p->has_steps) return 1;   /* the VM never defers */
  /* Slots no chunk reads but the outcome blocks and eval. */
  uint8_t *outcome_only = malloc((size_t)p->nslots + 1);
  if (!outcome_only) return 0;
  memset(outcome_only, 1, (size_t)p->nslots + 1);
  for (int i = 0; i < p->nchunks; i++) {
    const Chunk *c = &p->chunks[i];
    if (c->kind == CHUNK_END || c->kind == CHUNK_EVAL || c->kind == CHUNK_NOMOVES || c->kind == CHUNK_BOUND
        || c->kind == CHUNK_VALID)
      continue;
    for (int pc = c->start; pc >= 0 && pc < c->end; pc += 1 + op_operands[p->code[pc]]) {
      int a, n;
      if (p->code[pc] < 0 || p->code[pc] >= OP__COUNT) break;
      if (reads_slots(p, pc, &a, &n))
        for (int s = a; s < a + n && s < p->nslots; s++) if (s >= 0) outcome_only[s] = 0;
    }
  }
  int *point = malloc(((size_t)p->nrules + 1) * sizeof *point);
  int32_t *bounds = malloc(((size_t)p->nrules + 1) * sizeof *bounds);
  int npoints = 0, ok = point && bounds;
  for (int ri = 0; ri < p->nrules && ok; ri++) {
    const Chunk *ch = &p->chunks[p->rules[ri].effect];
    int len = ch->end - ch->start, nvals = ch->nlocals + ch->maxstack;
    if (ch->start < 0 || len <= 0 || len > DEFER_MAX_WORDS || nvals > DEFER_MAX_VALUES) continue;
    Flow f = { p, ch->start, ch->end, ch->nlocals, nvals, NULL, NULL, NULL, NULL, 0, NULL, NULL, ch->nparams };
    f.in = malloc((size_t)len * (size_t)nvals * sizeof *f.in + 1);
    f.height = malloc((size_t)len * sizeof *f.height);
    f.visits = malloc((size_t)len * sizeof *f.visits);
    f.work = malloc((size_t)len * sizeof *f.work);
    f.queued = malloc((size_t)len);
    f.fail = malloc((size_t)len);
    if (!f.in || !f.height || !f.visits || !f.work || !f.queued || !f.fail) ok = 0;
    int run = ok ? flow_run(&f) : 0;
    if (run < 0) ok = 0;
    if (run > 0) {
      for (int q = ch->start; q < ch->end; q++) {
        int64_t bound;
        if (f.height[q - ch->start] != 0) continue;
        if (tail_ok(&f, q, outcome_only, &bound)) {
          point[npoints] = q;
          bounds[npoints++] = (int32_t)bound;
          break;
        }
      }
    }
    free(f.in); free(f.height); free(f.visits); free(f.work); free(f.queued); free(f.fail);
  }
  /* Rules share no effect chunk; points are in code order. */
  for (int i = 1; i < npoints; i++)
    for (int j = i; j > 0 && point[j - 1] > point[j]; j--) {
      int t = point[j]; point[j] = point[j - 1]; point[j - 1] = t;
      int32_t b = bounds[j]; bounds[j] = bounds[j - 1]; bounds[j - 1] = b;
    }
  if (ok && npoints > 0) ok = insert_defers(p, point, bounds, npoints);
  free(point);
  free(bounds);
  free(outcome_only);
  return ok;
}
