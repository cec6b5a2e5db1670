/*
** aot_rt.h -- the runtime of the compiled tier (--engine compiled): what C
** translated from a game's bytecode (aot_gen.c) sees of gsolve.  Its text
** is embedded in the gsolve binary at build time (build/aot_rt_text.c) and
** pasted at the top of every generated file, so the installed program
** needs no source tree; gsolve includes it too (vm_int.h, aot.c), so the
** two sides share one definition of the environment and of the hash.
**
** Self-contained: only <stdint.h> and <string.h>.  The generated code
** reads and writes the VM through AotEnv (pointers to the VM's fields:
** the VM never moves) and calls back into gsolve (AotEnv's function
** pointers) for everything slow or rare: runtime errors, state writes off
** the fast path, outcomes, `next`, `pay`, `illegal`.
*/
#ifndef GSOLVE_AOT_RT_H
#define GSOLVE_AOT_RT_H

#include <stdint.h>
#include <string.h>

#define AOT_ABI 5   /* bumped when AotEnv or AotModule change */

/* The Zobrist key of (slot, value): a mixed 64-bit value, computed rather
** than tabled so that any slot range works. */
static inline uint64_t zobrist(int slot, int32_t v) {
  uint64_t x = ((uint64_t)(uint32_t)slot << 32 | (uint32_t)v) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* The instructions' arithmetic and board scans, one definition for the
** interpreter (interp.c) and the generated code.  DIV and MOD round
** towards minus infinity (b != 0, checked by the caller). */
static inline int32_t aot_floor_div(int32_t a, int32_t b) {
  int32_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}

static inline int32_t aot_floor_mod(int32_t a, int32_t b) {
  int32_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

/* LINE: the run of equal values of arr through cell c along direction d
** and its opposite (step: ncells x 8 neighbours, -1 off the board). */
static inline int32_t aot_line(const int32_t *arr, const int16_t *step, int32_t c, int32_t d) {
  int32_t v = arr[c], n = 1;
  for (int k = 0; k < 2; k++) {
    int dd = k ? (d + 4) & 7 : d;
    for (int x = step[c * 8 + dd]; x >= 0 && arr[x] == v; x = step[x * 8 + dd]) n++;
  }
  return n;
}

/* SEES: whether cell b is on one of the eight lines through cell a (b !=
** a) with every cell strictly between them holding v in arr, or being g
** (both cells on the board, w columns wide: along a line the next cell
** is the last plus sx + w * sy). */
static inline int32_t aot_sees(const int32_t *arr, int32_t w, int32_t a, int32_t b, int32_t v, int32_t g) {
  int32_t dx = b % w - a % w, dy = b / w - a / w;
  if (dx == 0 && dy == 0) return 0;
  if (dx != 0 && dy != 0 && dx != dy && dx != -dy) return 0;
  int32_t s = (dx > 0) - (dx < 0) + w * ((dy > 0) - (dy < 0));
  for (int32_t c = a + s; c != b; c += s)
    if (arr[c] != v && c != g) return 0;
  return 1;
}

/* COUNTS: how many of arr[0..n) equal v. */
static inline int32_t aot_counts(const int32_t *arr, int n, int32_t v) {
  int32_t k = 0;
  for (int i = 0; i < n; i++) k += arr[i] == v;
  return k;
}

/* FINDS: the first k >= i with arr[k] == v, or -1 (a start below 0 looks
** from the first entry; past the end, nothing). */
static inline int32_t aot_finds(const int32_t *arr, int n, int32_t v, int32_t i) {
  if (i < 0) i = 0;
  /* Eight entries at a time: a block without v costs one test (the
  ** compiler makes the eight comparisons a vector's). */
  for (; i + 8 <= n; i += 8) {
    const int32_t *a = arr + i;
    if ((a[0] == v) | (a[1] == v) | (a[2] == v) | (a[3] == v) | (a[4] == v) | (a[5] == v) |
        (a[6] == v) | (a[7] == v))
      break;
  }
  while (i < n && arr[i] != v) i++;
  return i < n ? i : -1;
}

/* SPAN: how many cells in a row after c towards d hold v. */
static inline int32_t aot_span(const int32_t *arr, const int16_t *step, int32_t c, int32_t d, int32_t v) {
  int32_t n = 0;
  for (int x = step[c * 8 + d]; x >= 0 && arr[x] == v; x = step[x * 8 + d]) n++;
  return n;
}

/* LEAP: the cell dx columns right and dy rows up from c on a w x h
** board, or -1 off it. */
static inline int32_t aot_leap(int32_t c, int32_t dx, int32_t dy, int w, int h) {
  int64_t x = (int64_t)(c % w) + dx, y = (int64_t)(c / w) + dy;
  return x >= 0 && x < w && y >= 0 && y < h ? (int32_t)(y * w + x) : -1;
}

/* STEPN: n steps from c towards d (-n: the other way); -1 once off the
** board; `far` (width + height) steps always leave it. */
static inline int32_t aot_stepn(const int16_t *step, int32_t c, int32_t d, int32_t n, int far) {
  int64_t k = n;
  if (k < 0) { k = -k; d = (d + 4) % 8; }
  if (k > far) c = -1;
  for (; k > 0 && c >= 0; k--) c = step[c * 8 + d];
  return c;
}

/* TURN: direction d turned by k eighths clockwise. */
static inline int32_t aot_turn(int32_t d, int32_t k) {
  return (int32_t)((((int64_t)d + k) % 8 + 8) % 8);
}

/* A move as game.h lays it out (aot.c asserts the layout). */
typedef struct AotMove {
  uint16_t rule;
  int16_t arg[4];
} AotMove;

/* The undo mark of a move played: where its writes start on the trail,
** the player who moved (slot 0: every move writes it, so it is kept here
** rather than on the trail) and the hash before it. */
typedef struct AotMark {
  int trail;
  int32_t mover;
  uint64_t hash;
} AotMark;

/* The VM's fields the generated code reads and writes most (the VM holds
** them as its member h). */
typedef struct AotHot {
  int32_t *trail;             /* the undo trail: pairs (slot, old value) */
  long ntrail, captrail;       /* long, not int: a slot write (int32_t) cannot alias them */
  long writable;              /* state writes allowed (long: as ntrail) */
  long steps;                 /* the step budget's count */
  uint64_t hash;              /* the state's incremental hash */
  const uint64_t **zob_base;  /* tabled Zobrist keys, or NULL (too many
                              ** values: vm_zobrist_entries) */
  /* DEFER (compiler/defer.c): may the effect running now stop there, and
  ** the rest it left: where it resumes, the step count, the locals. */
  int defer_now;
  int pending;
  int pend_pc;
  long pend_steps;
  int32_t *pend_locals;
  int pend_chunk;             /* its effect chunk */
  int32_t pend_mover;         /* the mover it reads */
  int defer_on;               /* the game's effects may defer (no views,
                              ** no filtering) */
  /* The line of play's marks, and `next` (0: not said) of the move being
  ** played: what a module's own apply (AotModule.play) keeps. */
  AotMark *marks;
  int nmarks, capmarks;
  int next_mover;
} AotHot;

/* DEFER: whether the run may stop here, with the rest's step bound (the
** VM runs the rest later or never); if so, the caller copies the
** effect's locals to h->pend_locals, then calls aot_defer_mark.  Two
** steps, not a locals array passed in: the generated code stores its
** scalar locals one by one, where an array built for the call was read
** back in wider loads than it was written (a store-forwarding stall on
** every move played). */
static inline __attribute__((always_inline)) int aot_defer_now(AotHot *h, int32_t bound, long max_steps) {
  return h->defer_now && h->steps <= max_steps - bound;
}

static inline __attribute__((always_inline)) void aot_defer_mark(AotHot *h, int pc) {
  h->pending = 1;
  h->pend_pc = pc + 2;
  h->pend_steps = h->steps;
}

/* DEFER at pc, with the effect's n locals L (an array): 1 when the run
** stops here. */
static inline __attribute__((always_inline)) int aot_defer(AotHot *h, int pc, const int32_t *L, int n,
                                                          int32_t bound, long max_steps) {
  if (!aot_defer_now(h, bound, max_steps)) return 0;
  for (int i = 0; i < n; i++) h->pend_locals[i] = L[i];
  aot_defer_mark(h, pc);
  return 1;
}

typedef struct AotEnv {
  void *vm;                   /* the VM, opaque here */
  int32_t *slots;             /* the state */
  AotHot *h;
  AotMove **movebuf;          /* where EMIT adds moves */
  int *nmoves;
  int *ret_pc1;               /* where the first nested call returns (messages) */
  int halted;                 /* an outcome, `illegal` or HALT stopped the run */
  /* A runtime error at pc: never returns. */
  void (*fail)(void *vm, int pc, int depth, int status, const char *fmt, ...)
      __attribute__((format(printf, 5, 6), noreturn));
  /* store_slot() itself: the checks, the trail's growth, the error. */
  void (*store)(void *vm, int slot, int32_t v, int pc, int depth);
  /* A rare instruction (an OP_ code: SETNEXT, NEXTCHANCE, PAY, ILLEGAL,
  ** WIN, LOSE, DRAW, SCORE) run by the interpreter's own definition,
  ** with the n values it pops. */
  void (*op)(void *vm, int op, int pc, int depth, const int32_t *vals, int n);
} AotEnv;

/* One function per chunk: runs it with n arguments at call depth `depth`,
** its frame starting `base` words into the VM's stack (the interpreter's
** stack-space limit is kept by counting).  n < 0: an effect's deferred
** rest, its locals in args, resumed after its DEFER. */
typedef int32_t (*AotChunkFn)(AotEnv *e, const int32_t *args, int n, int depth, int base);

typedef struct AotModule {
  int abi;                    /* AOT_ABI */
  int nchunks;
  const AotChunkFn *chunk;    /* one per chunk of the program */
  /* Plays move m as the VM's apply does for a plain game (no chance,
  ** passes, views, repetition, `illegal` or `pay`; the VM checks that, no
  ** deferred rest pending, room for a mark): the mark, the effect, the
  ** next player.  One call in place of the VM's three. */
  void (*play)(AotEnv *e, const AotMove *m);
} AotModule;

/* A state write: the common case (allowed, in range, room on the trail,
** tabled keys) here; anything else through store_slot() in gsolve.  fx
** and tabled are constants of the generated code: 1 in a move's effect
** (always run with writes allowed), 1 when the VM tables the keys. */
static inline __attribute__((always_inline)) void aot_store(AotEnv *e, int s, int32_t v, int32_t lo,
                                                           int32_t hi, int pc, int depth, int fx,
                                                           int tabled) {
  AotHot *h = e->h;
  if (__builtin_expect(tabled && (fx || h->writable) && v >= lo && v <= hi && h->ntrail < h->captrail, 1)) {
    int32_t old = e->slots[s];
    if (old == v) return;
    int32_t *t = h->trail + 2 * h->ntrail;
    t[0] = s;
    t[1] = old;
    h->ntrail++;
    h->hash ^= h->zob_base[s][old] ^ h->zob_base[s][v];
    e->slots[s] = v;
    return;
  }
  e->store(e->vm, s, v, pc, depth);
}

/* The Zobrist key of (slot s, value v): the VM's table (zb, that is
** AotHot.zob_base) when it has one, else computed. */
static inline uint64_t aot_key(const uint64_t *const *zb, int s, int32_t v) {
  return zb ? zb[s][v] : zobrist(s, v);
}

/* The next player into slot 0 at the end of a move, off the trail (its
** old value is in the move's mark: AotMark.mover).  v is a player or the
** chance player: in slot 0's range. */
static inline __attribute__((always_inline)) void aot_set_mover(AotHot *h, int32_t *slots, int32_t v) {
  int32_t old = slots[0];
  if (old == v) return;
  h->hash ^= aot_key(h->zob_base, 0, old) ^ aot_key(h->zob_base, 0, v);
  slots[0] = v;
}

#endif
