/*
** vm_int.h -- the VM's state, shared by the interpreter (interp.c) and the
** game interface built on it (vm.c).  Internal to src/vm.
**
** The state is a flat vector of 32-bit slots (slot 0: the player to move).
** Every write goes through one place, store_slot(), which checks the
** slot's bounds, records (slot, old value) on the undo trail and updates
** the Zobrist hash, so apply/undo never copy the state and the hash is
** always current.
*/
#ifndef GSOLVE_VM_INT_H
#define GSOLVE_VM_INT_H

#include "vm/vm.h"
#include "vm/aot_rt.h"
#include "compiler/opcodes.h"

#include <stdarg.h>

/* Repetition tests (and matches) kept between two history traces; past
** it the trace says so (vm_history_trace). */
#define VM_MAX_TRACE 4096

#define VM_STACK_WORDS (1 << 20)   /* locals and operands of all frames */
#define VM_MAX_CALLS   256         /* nested function calls */
#define VM_SPARSE_CELLS 8          /* pieces of a sparse board (vm_symmetry.c) */
#define VM_MAX_MOVE_STEPS 1024     /* steps of one move (`continue move`) */
#define VM_MAX_CHAINS (1u << 30)   /* moves of several steps one engine keeps */
/* Move.rule of a move of several steps (vm_chain.c): VM_PACKED_RULE + k
** for k steps packed into the arguments, VM_CHAIN_RULE for a move stored
** in the engine's table (its index in arg[0] | arg[1] << 16). */
#define VM_PACKED_RULE 0x8000
#define VM_CHAIN_RULE 0xffff

typedef struct VmChains VmChains;

typedef struct Frame {
  int chunk;          /* index into p->chunks */
  int base;           /* first local in the stack */
  int ret_pc;         /* where the caller resumes */
  int ret_sp;         /* VM_CHECK_STACK: the caller's height after the call */
} Frame;

typedef AotMark Mark;

/* vm_effects.c: the effects of one position's legal moves, recorded
** while generate filters them. */
typedef struct EffectRecord {
  int valid;          /* the position is the current one at its depth */
  uint64_t hash;      /* the position's hash */
  int n, cap;         /* moves recorded */
  Move *moves;
  int32_t *first;     /* per move: first write, next_mover, chance_after;
                      ** then the end of the last move's writes */
  int32_t *writes;    /* pairs: slot, value after the effect */
  int nwrites, capwrites;
  int hint;           /* where to look for the next move played */
} EffectRecord;

/* The interpreter's superinstructions (vm_fuse.c), listed once here:
** X(FIRST, SECOND) is the pair of instructions that OPF_FIRST_SECOND runs
** as one dispatch (its handler is FUSED(FIRST_SECOND) in interp.c). */
#define VM_FUSED_PAIRS(X)                                                  \
  X(LOADSXYLK, JEQK) X(LOADSXYLK, JNEK) X(INCL, LOOP) X(JSNEK, EMITK)      \
  X(LOADL, LINEK) X(ATLK, TEEL) X(STORESIS, INCS)

/* Their opcodes, after the program's. */
enum {
  OPF__BEFORE = OP__COUNT - 1,          /* the first pair is OP__COUNT */
#define VM_FUSED_ENUM(a, b) OPF_##a##_##b,
  VM_FUSED_PAIRS(VM_FUSED_ENUM)
#undef VM_FUSED_ENUM
  OPF__END
};
/* Each fused opcode's two parts. */
extern const int vm_fused_parts[OPF__END - OP__COUNT][2];
/* A copy of p's code with the pairs fused; NULL when out of memory. */
int32_t *vm_fuse(const Program *p);

typedef struct VM {
  Game base;
  const Program *p;
  int32_t *code;      /* what the interpreter runs: p's code, fused */
  int32_t *slots;
  /* The hash, the trail, the write permission and the step count: the
  ** fields the compiled tier's code uses most, in one struct it reaches
  ** through one pointer (aot_rt.h). */
  AotHot h;
  int32_t *stack;
  Frame frames[VM_MAX_CALLS];
  /* What the running code may do, and what it produced. */
  int outcome_ok;     /* win/lose/draw/score allowed (end, nomoves) */
  int ended;          /* an outcome statement ran */
  int chance_after;   /* set by `next chance, P`, 0 if not */
  int32_t reward[GAME_MAX_PLAYERS];   /* `pay` of the move applied last */
  int rewarded;       /* some reward[] is nonzero */
  int rejected;       /* the effect said `illegal` */
  int filtering;      /* generate is trying its moves */
  int gen_more;       /* generate does more than run the generator
                      ** (vm.c: generate_more) */
  /* Moves of several steps (vm_chain.c; p->has_steps). */
  int chain_more;     /* the step just run said `continue move` */
  int32_t priority;   /* the last `priority` of the move being found */
  VmChains *chains;   /* the steps of the moves found, and the search */
  GameVtable vt_steps;    /* the vtable with vm_apply_steps */
  EffectRecord *fx;   /* per depth of the line of play (vm_effects.c) */
  int fx_cap;
  EffectRecord *fx_rec;   /* the record generate is filling, or NULL */
  Outcome out;
  /* A move's effect stopped at DEFER (compiler/defer.c): the rest runs
  ** (vm_force) before anything reads the position, or never when the
  ** move is taken back first (perft's last ply). */
  int plain;          /* no chance, passes, views, repetition, `illegal`:
                      ** vm_apply's short way */
  int steps_plain;    /* the same in a game with moves of several steps:
                      ** its moves of one step go the short way */
  void (*aot_play)(AotEnv *e, const AotMove *m);   /* the compiled tier's
                      ** short way (AotModule.play), or NULL */
  int pend_on_stack;  /* the interpreter left the rest's locals (this
                      ** many) at the stack's base, not in h.pend_locals */
  Move *movebuf; int nmoves;
  unsigned char *key_out; /* vm_generate_keyed: where the children's keys */
  uint8_t *mover_out;     /* and movers go, for the generate it calls */
  int keyed;              /* the moves keyed so far */
  int depth;          /* call depth of the running code (for messages) */
  int32_t *scratch;   /* nslots words for canonical forms */
  int *board_base;    /* the first slot of each [board] array, in slot order */
  int nboard;         /* how many [board] arrays */
  int permute_on_board;   /* a permutable array is a [board] array */
  int32_t *sym_sorted;    /* the group's cell permutations, sorted (a trie) */
  int32_t *sym_next;      /* ncells x nsym: end of element i's run at cell c */
  int32_t *live;          /* 4 x nsym: the runs a canonical form keeps */
  int32_t *sym_inverse;   /* nsym x ncells: where each element sends a cell
                          ** (sym_sorted's order), for sparse boards */
  int32_t *canon_state;   /* nslots words: vm_canonical_key's canonical form */
  uint64_t *sym_bit;      /* ncells x nsym: 1 << where element i sends cell
                          ** c, when the boards have at most 64 cells */
  /* A sparse board's pieces at depth pieces_depth of the line of play
  ** (-1: none; the current position's or its parent's), from which its
  ** children's follow by the trail's writes instead of a scan of every
  ** cell (vm_symmetry.c).  A position at a depth up to state_set_depth
  ** may have been set by vm_set_state rather than made from its parent by
  ** a move. */
  int pieces_depth, state_set_depth, npieces;
  int32_t piece_cell[VM_SPARSE_CELLS], piece_board[VM_SPARSE_CELLS], piece_value[VM_SPARSE_CELLS];
  int32_t *cell_of_slot;  /* per slot: board << 16 | cell, or -1 */
  /* The compiled tier (aot.c): the loaded module, the environment its code
  ** runs in, and what releases the module when the VM is freed. */
  const AotModule *aot;
  AotEnv aot_env;
  void (*aot_release)(void *handle);
  void *aot_handle;
  uint8_t *bits;      /* per slot: bits in a packed key */
  uint8_t *zero_run;  /* per slot: how many slots from it on have lowest
                      ** value 0 and its width (at most 255) */
  uint32_t *bit_off;  /* per slot: where its bits start in a packed key */
  int *loose, nloose; /* the slots outside the [board] arrays */
  int pieces_key;     /* keys can be packed from the loose slots and a
                      ** board's pieces (vm_pack_pieces) */
  /* Keys as a list of pieces (every [board] array says `at most N
  ** pieces`): the loose slots (at bit_off), then list_n entries of
  ** place and value minus the lowest, by increasing place, 0 when unused. */
  int list_key, list_n, place_bits, entry_bits;
  uint32_t list_off;  /* the first entry's bit */
  /* zobrist(s, v) tabled when the slot ranges are small enough:
  ** zob_base[s][v] for lo[s] <= v <= hi[s] (zob_base[s] is offset by lo). */
  uint64_t *zob_table;
  /* The repetition rule: per position of the line of play (0: the start,
  ** k: after k moves), the hash and values of the compared slots, and a
  ** hash of the set of the earlier ones (what a table must key on). */
  int rep_on;             /* applied (off: positions alone decide, --count) */
  int *rep_slots, rep_n;  /* the compared slots */
  uint64_t *rep_hash, *rep_set;
  int32_t *rep_vals;
  int nrep, caprep;
  int rep_in_key;         /* the set of earlier positions is in the key */
  /* What the repetition tests compared since the searcher last asked
  ** (vm_history_trace): positions tested, and earlier ones matched. */
  uint64_t trace_tested[VM_MAX_TRACE + 1];
  uint64_t trace_hit[VM_MAX_TRACE + 1];
  int trace_hit_index[VM_MAX_TRACE + 1];
  int ntested, nhits;
  /* Views (vm_view.c; only when the game has `hidden` declarations): per
  ** slot the declaration covering it and its cell indices, per ply every
  ** player's information-state key and the move that led there. */
  GameVtable vt_views;    /* the vtable with infostate and print_view */
  int *view_decl;
  int32_t *view_args;     /* nslots * 2 */
  int32_t *view_a, *view_b;   /* nslots each: views being compared */
  uint64_t *view_keys;    /* per ply: nplayers * 2 words */
  Move *view_moves;       /* view_moves[k]: the move from ply k to k+1 */
  int view_cap;           /* plies allocated */
} VM;

/* interp.c: runs chunk `ci` with `nargs` arguments; returns the value of
** a top-level `return` (eval), else 0.  An outcome statement stops the
** whole run.  nargs < 0: resumes the deferred rest of effect ci at
** vm->h.pend_pc with its locals in args (vm_force). */
int32_t vm_interp(VM *vm, int ci, const int32_t *args, int nargs);
/* The same through the compiled tier's code (nargs < 0: the rest of a
** deferred effect, which the module resumes after its DEFER). */
static inline int32_t vm_aot_run(VM *vm, int ci, const int32_t *args, int nargs) {
  vm->h.steps = nargs < 0 ? vm->h.pend_steps : 0;
  vm->depth = 0;
  vm->aot_env.halted = 0;
  return vm->aot->chunk[ci](&vm->aot_env, args, nargs, 0, 0);
}
/* Runs the VM's chunks through module m from now on; release(handle) when
** the VM is freed. */
void vm_aot_attach(VM *vm, const AotModule *m, void *handle, void (*release)(void *handle));
static inline int32_t vm_run(VM *vm, int ci, const int32_t *args, int nargs) {
  return vm->aot ? vm_aot_run(vm, ci, args, nargs) : vm_interp(vm, ci, args, nargs);
}
/* interp.c: a rare instruction (SETNEXT, NEXTCHANCE, PAY, CONTMOVE, PRIORITY, ILLEGAL, WIN,
** LOSE, DRAW, SCORE) with the n values it pops, at pc and call depth:
** the one definition the interpreter and the compiled tier share.  After
** ILLEGAL and the outcomes the run stops. */
void vm_rare_op(VM *vm, int op, int pc, int depth, const int32_t *vals, int n);
void vm_vfail(VM *vm, int pc, int depth, int status, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0), noreturn));
/* Reports a runtime error at pc (naming the rule, and its caller at call
** depth > 0) and leaves through the game's trap, or exits. */
void vm_fail(VM *vm, int pc, int depth, int status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6), noreturn));
/* The same at a place of the source (a declaration). */
void vm_fail_at(VM *vm, Span at, int status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5), noreturn));
/* vm_view.c: sets up the views (1; 0 out of memory; -1 after a runtime
** error, reported), folds the observations of the move just applied by
** `mover` into every player's key, frees them; the vtable hooks. */
int vm_views_init(VM *vm);
void vm_views_observe(VM *vm, int32_t mover, const Move *m);
void vm_views_free(VM *vm);
size_t vm_infostate(Game *g, int player, uint64_t key[2], char *text, size_t size);
void vm_print_view(Game *g, int player, FILE *f);
/* vm.c: draws the state `slots` (a view: INT32_MIN where masked, '?'). */
void vm_print_slots(VM *vm, const int32_t *slots, FILE *f);
/* vm_effects.c: begin recording the current position's effects (NULL:
** out of memory, none recorded); record move m's, just run, whose writes
** start at trail_from; drop m's again (it was not legal after all); seal
** the record (valid from now); void depth d's record; replay m's effect
** at `depth` if recorded (1) or not (0); free them all. */
EffectRecord *vm_effects_begin(VM *vm);
void vm_effects_record(VM *vm, EffectRecord *r, const Move *m, int trail_from);
void vm_effects_drop_last(EffectRecord *r, const Move *m);
void vm_effects_seal(VM *vm, EffectRecord *r);
void vm_effects_void(VM *vm, int depth);
int vm_effects_replay(VM *vm, int depth, const Move *m, int pc);
void vm_effects_free(VM *vm);
/* vm_symmetry.c: the trie of the group's elements (0 out of memory), the
** canonical form and the orbit of a state (the symmetric vtable's). */
int vm_symmetry_trie(VM *vm);
void vm_canonical(Game *g, const void *state, void *result);
uint32_t vm_orbit(Game *g, const void *state);
int vm_symmetries(Game *g);
void vm_symmetry_image(Game *g, int e, const void *state, void *out);
void vm_canonical_key(Game *g, const void *state, void *key);

/* vm_pack.c: the packed keys' layout (bits, offsets; 0 when out of
** memory), pack and unpack, and a key made from the loose slots of state
** and k pieces (slot[t] holding value[t]; every other board cell empty). */
int vm_pack_init(VM *vm);
void vm_pack_free(VM *vm);
void vm_pack(Game *g, const void *state, void *key);
void vm_unpack(Game *g, const void *key, void *state);
void vm_pack_pieces(VM *vm, const int32_t *state, const int32_t *place, const int32_t *value, int k,
                    void *key);
/* Doubles the undo trail (a runtime error when out of memory). */
void vm_trail_grow(VM *vm, int pc);
/* vm.c: room for one more mark of the line of play, at most limit marks
** (beyond: the runtime error of a line longer than GAME_MAX_PLY moves). */
void vm_marks_reserve(VM *vm, int limit);
/* vm_chain.c: the table and the search (0: out of memory); the whole
** moves that the first steps buf[0..n) start, into buf, and how many;
** a move's effects run in turn (apply; returns its first step's rule); a
** move's steps (m itself, n = 1, unless it is a move of several steps;
** valid until the next call); freeing. */
int vm_chain_init(VM *vm);
int vm_chain_generate(VM *vm, Move *buf, int n);
int vm_chain_play(VM *vm, const Move *m);
const Move *vm_chain_steps(VM *vm, const Move *m, int *n);
void vm_chain_free(VM *vm);
/* vm.c: the entries of p's Zobrist table (h.zob_base), 0 when the VM
** computes the keys instead (too many slot values). */
size_t vm_zobrist_entries(const Program *p);
/* vm.c: runs the deferred rest of the last move's effect, if any: before
** anything reads the state or plays on. */
void vm_force(VM *vm);
static inline void vm_settle(VM *vm) {
  if (__builtin_expect(vm->h.pending, 0)) vm_force(vm);
}

/* A write the caller knows is allowed and in the slot's range. */
static inline __attribute__((always_inline)) void store_slot_checked(VM *vm, int s, int32_t v, int pc) {
  int32_t old = vm->slots[s];
  if (old == v) return;
  if (vm->h.ntrail == vm->h.captrail) vm_trail_grow(vm, pc);
  int32_t *t = vm->h.trail + 2 * vm->h.ntrail;
  t[0] = s;
  t[1] = old;
  vm->h.ntrail++;
  vm->h.hash ^= aot_key(vm->h.zob_base, s, old) ^ aot_key(vm->h.zob_base, s, v);
  vm->slots[s] = v;
}

static inline __attribute__((always_inline)) void store_slot(VM *vm, int s, int32_t v, int pc) {
  const Program *p = vm->p;
  if (!vm->h.writable) vm_fail(vm, pc, vm->depth, EXIT_RUNTIME, "the state can only change in a move's effect");
  if (v < p->lo[s] || v > p->hi[s]) {
    char name[96];
    program_slot_name(p, s, name, sizeof name);
    vm_fail(vm, pc, vm->depth, EXIT_RUNTIME, "value %d out of range %d..%d for '%s'", v, p->lo[s], p->hi[s], name);
  }
  store_slot_checked(vm, s, v, pc);
}

#endif
