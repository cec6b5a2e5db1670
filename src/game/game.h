/*
** game.h -- the game interface that every engine implements.
**
** The solvers, perft, the position counter and the command line see a
** game only through this interface: generate the legal moves of the
** current position, apply and undo a move, test for the end, read the
** outcome, hash the position.  The bytecode VM (vm.c) implements it for
** any .game file; native engines implement it for the games where speed
** matters most.
**
** An engine holds exactly one current position and mutates it in place:
** apply pushes, undo pops (an undo trail, never state copies).
*/
#ifndef GSOLVE_GAME_H
#define GSOLVE_GAME_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GAME_MAX_PLAYERS 8      /* players a .game file may declare */
#define GAME_MAX_ARGS    4      /* arguments of one move rule */
#define GAME_MAX_MOVES   131072 /* legal moves of one position, at most (Connect6's
                                ** two stones a turn on 19x19: 360 x 359) */
#define GAME_MAX_PLY     100000 /* depth of apply() nesting, at most */
#define GAME_CHANCE      (-1)   /* to_move() where the chance player moves */

/* A move: which rule, and its argument values.  Unused args are 0 so a
** move compares equal bytewise. */
typedef struct Move {
  uint16_t rule;                  /* index of the move rule */
  int16_t arg[GAME_MAX_ARGS];     /* argument values, in declaration order */
} Move;

/* The result of a finished game: one payoff per player (index 0 is the
** first declared player).  `win P` gives P 1 and the others 0, `lose P`
** gives P -1 and the others 0, `draw` gives all 0.  Two-player solvers
** use the margin payoff[mover] - payoff[other]. */
typedef struct Outcome {
  int32_t payoff[GAME_MAX_PLAYERS];
} Outcome;

typedef struct Game Game;

/* What a repetition rule's tests compared (see GameVtable.history_trace):
** the positions tested (their hashes), and the earlier positions of the
** line they matched, with their indices on the line (0: the start). */
typedef struct HistoryTrace {
  const uint64_t *tested;
  int ntested;
  const uint64_t *hits;
  const int *hit_index;
  int nhits;
} HistoryTrace;

/* What an engine's own solver (GameVtable.solve) is asked: the command
** line's settings that such solvers take. */
typedef struct EngineSolveOptions {
  size_t table_mib;               /* --tt-size; 0: no table */
  int threads;                    /* --threads (ENGINE_THREADS); 0: one */
  const char *without;            /* --without LIST (ENGINE_TECHNIQUES) */
  const char *book;               /* --book FILE (ENGINE_BOOK) */
  int weak;                       /* --weak: win, draw or loss only */
  int all_moves;                  /* every move's value exact; else the
                                  ** best moves exact, the others bounded */
  int root_only;                  /* the position's value alone (test sets) */
  int keep_table;                 /* keep what the table learnt (play) */
  FILE *err;                      /* where errors go */
  /* Optional: a progress display, told now and then on the calling
  ** thread how far the solve (or book) is: `how` in words ("score
  ** between -2 and +5"), the positions searched so far, and the share
  ** done in 0..1 where the solver knows it (else negative). */
  void (*progress)(void *arg, const char *how, uint64_t nodes, double done);
  void *progress_arg;
} EngineSolveOptions;

/* One root move's value from an engine's solver, for the root's mover. */
typedef struct EngineMoveValue {
  int32_t margin;                 /* final margin: > 0 a win, 0 a draw */
  int32_t plies;                  /* plies to the end from the root (this
                                  ** move included); -1: not known */
  int exact;                      /* else margin is an upper bound */
} EngineMoveValue;

/* An engine solver's answer.  moves has room for GAME_MAX_MOVES, filled
** in generation order (not with root_only). */
typedef struct EngineAnswer {
  int32_t margin, plies;          /* the root's, as for a move */
  int nmoves;
  EngineMoveValue *moves;
  uint64_t nodes;                 /* positions searched */
  uint64_t book_hits;             /* positions found in the book */
} EngineAnswer;

/* What --make-book built (GameVtable.make_book). */
typedef struct EngineBookInfo {
  int width, height;              /* the board it is for */
  int from, to;                   /* stones of the positions it holds */
  size_t positions;
  uint64_t nodes;                 /* positions searched to build it */
} EngineBookInfo;

/* GameVtable.features: what an engine's own solver offers. */
enum {
  ENGINE_SOLVES = 1 << 0,         /* solve: exact values of the root's moves */
  ENGINE_DISTANCES = 1 << 1,      /* ... with the plies to the end */
  ENGINE_WEAK = 1 << 2,           /* --weak: win/draw/loss only, faster */
  ENGINE_THREADS = 1 << 3,        /* --threads */
  ENGINE_TECHNIQUES = 1 << 4,     /* --without LIST */
  ENGINE_BOOK = 1 << 5,           /* --book FILE, make_book */
  ENGINE_TABLE = 1 << 6           /* --tt-size sizes its table */
};

typedef struct GameVtable {
  /* Writes the legal moves of the current position into buf (room for
  ** GAME_MAX_MOVES) and returns their number, in generation order. */
  int (*generate)(Game *g, Move *buf);
  /* Plays a legal move; undo() takes it back. */
  void (*apply)(Game *g, const Move *m);
  void (*undo)(Game *g);
  /* 1 and the outcome if the end conditions hold in the current position
  ** (the "no legal move" case is separate: see no_moves). */
  int (*ended)(Game *g, Outcome *out);
  /* The outcome when the player to move has no legal move. */
  void (*no_moves)(Game *g, Outcome *out);
  /* Heuristic value for the player to move; 0 when the game has no eval. */
  int32_t (*eval)(Game *g);
  /* Player to move, 0-based. */
  int (*to_move)(Game *g);
  /* 64-bit Zobrist hash of the whole state. */
  uint64_t (*hash)(Game *g);
  /* The raw state: `state_bytes` bytes that determine the position. */
  const void *(*state)(Game *g);
  /* Move notation, e.g. "drop 4" or "4"; returns the length written. */
  int (*format_move)(Game *g, const Move *m, char *buf, size_t size);
  /* Human-readable drawing of the position. */
  void (*print)(Game *g, FILE *f);
  /* Optional (NULL when the game declares no symmetry): writes into out
  ** (state_bytes) the canonical form of `state`, the same for every
  ** position a declared symmetry maps onto it. */
  void (*canonical)(Game *g, const void *state, void *out);
  /* Optional (NULL: the key is the state itself): packs a state into
  ** key_bytes bytes, one-to-one, for tables that store many positions. */
  void (*pack)(Game *g, const void *state, void *key);
  /* Optional (NULL: not offered): makes `state` (state_bytes, as state()
  ** returns them) the current position.  Moves applied before stay on the
  ** undo stack: set the state they led to back before undoing them.  The
  ** caller answers for the state being one of the game's. */
  void (*set_state)(Game *g, const void *state);
  /* Optional (NULL: keys cannot be read back): the state a packed key was
  ** made from (pack's inverse). */
  void (*unpack)(Game *g, const void *key, void *state);
  /* Optional, with canonical: how many distinct positions the declared
  ** symmetries map `state` onto (itself included); 0 when the engine
  ** cannot count them. */
  uint32_t (*orbit)(Game *g, const void *state);
  /* Optional, with canonical and pack: pack(canonical(state)) into key,
  ** without making the canonical state when the engine can (a board of
  ** a few pieces). */
  void (*canonical_key)(Game *g, const void *state, void *key);
  /* Optional, with canonical (NULL, or 0 returned: none usable): the
  ** number of elements of the declared board symmetry group, and the
  ** image of `state` under element e (0 <= e < that number) into out
  ** (state_bytes); for searches that compare positions element by
  ** element (alphabeta's symmetric lines). */
  int (*symmetries)(Game *g);
  void (*symmetry_image)(Game *g, int e, const void *state, void *out);
  /* Optional, with canonical_key: generate, and for each move i the
  ** canonical key of the position it leads to at keys + i * key_bytes and
  ** that position's player to move in mover[i] (an engine that plays the
  ** moves to test them keys them then, instead of playing them again). */
  int (*generate_keyed)(Game *g, Move *buf, unsigned char *keys, uint8_t *mover);
  /* Optional (NULL: the game has no such notion): whether the player to
  ** move is in check (a game's `pieces ... check F`), for SAN's '+'. */
  int (*in_check)(Game *g);
  /* Optional (NULL: the engine knows no limits beyond its rules): 0 when
  ** the current position is one of the game's, else 1 with the reason in
  ** why (size bytes): a value outside its declared range, more pieces
  ** than `at most N pieces` allows, or what the game's `valid` block
  ** says.  Asked of a position set from outside the rules (--fen, the end
  ** of --position), before any solver sees it.  The valid block may fail
  ** at run time (the usual trap). */
  int (*invalid)(Game *g, char *why, size_t size);
  /* Optional (NULL: every chance move has weight 1): the weights of the
  ** chance moves m[0..n) of the current position, a chance node.  A
  ** chance move is played with probability weight / total weight. */
  void (*weights)(Game *g, const Move *m, int n, uint32_t *w);
  /* Optional (NULL: no per-move payoffs): what each player earned by the
  ** move applied last (`pay`), into out[nplayers]; 1 if any is nonzero.
  ** A player's payoff is the sum over the game of these and the outcome. */
  int (*rewards)(Game *g, int32_t *out);
  /* Optional (NULL: positions alone decide): on a game whose rules look
  ** at the line of play (a repetition rule), turns that rule off or on;
  ** off, the game is the game of positions (--count uses it). */
  void (*set_history)(Game *g, int on);
  /* Optional, with a repetition rule: whether the hash and the packed key
  ** include the set of earlier positions (on by default: tables are then
  ** exact without more ado); a searcher that accounts for the history
  ** itself turns it off.  history_trace: what the rule's tests compared
  ** since the last call (then cleared); -1 if some were not recorded.
  ** history_line: the hashes of the positions before the current one,
  ** in line order; returns their number. */
  void (*history_key)(Game *g, int on);
  int (*history_trace)(Game *g, HistoryTrace *t);
  int (*history_line)(Game *g, const uint64_t **hashes);

  /* Optional: an engine's own solver (the `native` solver).  features
  ** says what it offers (ENGINE_*).  solve answers the current position,
  ** which has not ended; an exit status (errors, and a stop by Ctrl-C or
  ** --time-limit, already reported on o->err). */
  unsigned features;
  int (*solve)(Game *g, const EngineSolveOptions *o, EngineAnswer *a);
  /* Optional: makes ready what solve would make on its first call with
  ** options o (the solver, its table's memory mapped), so that a
  ** timing of solve (--test-set) counts the searches alone.  An exit
  ** status, as for solve. */
  int (*prepare)(Game *g, const EngineSolveOptions *o);
  /* Optional (ENGINE_BOOK): solves the positions of 0..depth stones from
  ** the start into an opening book saved as `path` (o->progress, if set,
  ** hears of each position).  An exit status, as for solve. */
  int (*make_book)(Game *g, const EngineSolveOptions *o, int depth, const char *path,
                   EngineBookInfo *info);
  /* Optional (ENGINE_TECHNIQUES): the names --without takes. */
  const char *techniques;

  /* Optional (NULL: perfect information; Game.has_views set when not):
  ** player p's information state at the current position, under perfect
  ** recall.  key[0..1] is equal for two positions exactly when p's views
  ** of the lines of play that led to them agree: p's own moves, and what
  ** p saw of the state after every move (and who made it).  text, when
  ** not NULL, gets a printable form (NUL-terminated, cut at size bytes);
  ** returns the length the whole text needs, without the NUL. */
  size_t (*infostate)(Game *g, int player, uint64_t key[2], char *text, size_t size);
  /* Optional (NULL: print): draws the position as player p sees it, the
  ** hidden parts masked, for play. */
  void (*print_view)(Game *g, int player, FILE *f);
} GameVtable;

/* The common header of every engine; engines embed it first. */
struct Game {
  const GameVtable *vt;
  const char *engine;             /* "vm" or the native engine's name */
  const char *name;               /* the game's declared name */
  int nplayers;
  const char *player_names[GAME_MAX_PLAYERS];
  size_t state_bytes;             /* size of what state() returns */
  size_t key_bytes;               /* size of a packed state (pack) */
  int has_chance;                 /* some positions are chance nodes */
  int has_rewards;                /* some moves pay (vt->rewards) */
  int has_history;                /* legal moves or the end depend on the
                                  ** earlier positions (repetition rule) */
  int has_views;                  /* some of the state is hidden from some
                                  ** player (vt->infostate) */
  int score_only;                 /* the game declares `score only;`: solvers
                                  ** that can, value positions by score
                                  ** alone (no distance to the end) */
  int has_eval;                   /* the game has an eval (else it is 0) */
  /* `components V;` (docs/cgt.md): the position is the sum of the games
  ** at the entries of V, slots comp_slot .. comp_slot + comp_count - 1 of
  ** the state (int32_t each; 0 an empty component); comp_count 0: none. */
  int comp_slot, comp_count;
  int32_t margin_bound;           /* every outcome's |margin| is at most
                                  ** this; 0 when it is not known */
  /* Optional (board_bytes 0: none): writes the board of `state` (the
  ** game's per-cell arrays) into out, for --count's `boards`. */
  size_t board_bytes;
  void (*board_key)(Game *g, const void *state, void *out);
  /* Optional (NULL, or 0 returned: none): proven bounds on the final
  ** margin of the player to move (his payoff minus the other's) from the
  ** current position, whatever is played: the game's `bound` block. */
  int (*bounds)(Game *g, int32_t *lo, int32_t *hi);
  void (*destroy)(Game *g);       /* frees the engine (game_free) */
  jmp_buf *trap;                  /* where runtime errors jump; NULL: exit */
  int error_status;               /* exit status of the last runtime error */
};

/* Thin inline wrappers so call sites read like plain functions. */
static inline int game_generate(Game *g, Move *buf) { return g->vt->generate(g, buf); }
static inline void game_apply(Game *g, const Move *m) { g->vt->apply(g, m); }
static inline void game_undo(Game *g) { g->vt->undo(g); }
static inline int game_ended(Game *g, Outcome *o) { return g->vt->ended(g, o); }
static inline void game_no_moves(Game *g, Outcome *o) { g->vt->no_moves(g, o); }
static inline int32_t game_eval(Game *g) { return g->vt->eval(g); }
static inline int game_to_move(Game *g) { return g->vt->to_move(g); }
static inline uint64_t game_hash(Game *g) { return g->vt->hash(g); }
static inline const void *game_state(Game *g) { return g->vt->state(g); }
static inline int game_format_move(Game *g, const Move *m, char *b, size_t n) {
  return g->vt->format_move(g, m, b, n);
}
static inline void game_print(Game *g, FILE *f) { g->vt->print(g, f); }
static inline void game_free(Game *g) { if (g) g->destroy(g); }
/* The name of the player to move, "chance" at a chance node. */
static inline const char *game_mover_name(Game *g) {
  int m = g->vt->to_move(g);
  return m == GAME_CHANCE ? "chance" : g->player_names[m];
}
static inline void game_weights(Game *g, const Move *m, int n, uint32_t *w) {
  if (g->vt->weights) g->vt->weights(g, m, n, w);
  else for (int i = 0; i < n; i++) w[i] = 1;
}
static inline void game_set_history(Game *g, int on) {
  if (g->vt->set_history) g->vt->set_history(g, on);
}
static inline int game_rewards(Game *g, int32_t *out) {
  return g->vt->rewards ? g->vt->rewards(g, out) : 0;
}

/* Runtime errors (a rule indexing out of range, a step budget exhausted)
** do not return: the engine prints the diagnostic, sets error_status and
** longjmps to *trap when a caller installed one, or exits with
** error_status otherwise.  A caller that installs a trap frees what it
** allocated itself after the jump; the engine can
** then only be freed. */

/* Calls fn(arg) under a trap of its own, so that the caller can free
** fn's work when a rule fails inside it.  Returns 0 with fn's result in
** *result, or 1 when a rule failed (g->error_status is its exit status);
** either way the caller's trap is in place again. */
int game_call_trapped(Game *g, int (*fn)(void *arg), void *arg, int *result);

/* After a failed game_call_trapped, once its work is freed: the failure
** goes on to the caller's trap, or exits with g->error_status when there
** is none.  Does not return. */
_Noreturn void game_reraise(Game *g);

#endif
