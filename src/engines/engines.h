/*
** engines.h -- the engines that run a game's rules, and the choice among
** them (registry.c): the VM (vm/), its compiled tier (compiled/) and the
** native engines.  Each native engine implements game.h for one game
** family exactly as its .game file defines it: same moves in the same
** order and notation, same outcomes, so every solver gives the same
** answers with either engine (tests/unit/test_native.c checks this).
*/
#ifndef GSOLVE_ENGINES_H
#define GSOLVE_ENGINES_H

#include <stdio.h>
#include "compiler/compiler.h"
#include "game/game.h"

/* A fresh native engine for the game; else NULL with *status EXIT_USAGE
** and the reason in why (the engine does not exist or does not support
** these parameters), or EXIT_LIMIT (out of memory, nothing in why).
** Each engine's constructor has the same contract; it sets *status only
** when it fails for lack of memory (native_new sets it first). */
Game *native_new(const Program *p, char *why, size_t n, int *status);

Game *native_nim_new(const Program *p, char *why, size_t n, int *status);
Game *native_c4_new(const Program *p, char *why, size_t n, int *status);
Game *native_sticks_new(const Program *p, char *why, size_t n, int *status);

/* The fields every native engine of a two-player game sets alike: its
** vtable, name ("native-..."), the game's name and players, the size of
** its state (also its key) and its destructor.  Returns g. */
Game *native_init(Game *g, const Program *p, const GameVtable *vt, const char *engine,
                  size_t state_bytes, void (*destroy)(Game *g));

/* An engine's own solver's answer (GameVtable.solve): the root's value,
** then each root move's in generation order, appended. */
static inline void native_answer_root(EngineAnswer *a, int32_t margin, int32_t plies,
                                      uint64_t nodes) {
  a->margin = margin;
  a->plies = plies;
  a->nodes = nodes;
  a->book_hits = 0;
  a->nmoves = 0;
}
static inline void native_answer_move(EngineAnswer *a, int32_t margin, int32_t plies, int exact) {
  EngineMoveValue *m = &a->moves[a->nmoves++];
  m->margin = margin;
  m->plies = plies;
  m->exact = exact;
}

/* An engine's undo history could not grow: reports "out of memory" and
** leaves like a runtime error (game.h: through g->trap with status
** EXIT_LIMIT, or exit). */
void native_out_of_memory(Game *g) __attribute__((noreturn));

/* --engine: which engine runs the rules.  ENGINE_AUTO_LONG is `auto` for
** a long job (main.c: perft, count, solve, playouts, test sets), which
** also takes the compiled tier when the game's object is cached.
** ENGINE_AUTO_RULES is `auto` for a long job that needs the rules' own
** engine (--compact packs positions into keys, which the native engines
** do not): ENGINE_AUTO_LONG without the native engine. */
typedef enum EngineChoice { ENGINE_AUTO, ENGINE_VM, ENGINE_NATIVE, ENGINE_COMPILED,
                            ENGINE_AUTO_LONG, ENGINE_AUTO_RULES } EngineChoice;

/* The compiled tier (compiled/compiled.c): the VM running p's rules as C
** built by the system's compiler and loaded; NULL with *status and the
** reason in why (EXIT_USAGE: no compiler, or code it does not translate,
** or a compiler that failed; EXIT_IO: no folder to build in, or no
** loadable object; EXIT_INTERRUPTED: a stop while it built;
** EXIT_RUNTIME: the start block failed, already reported; EXIT_OK: the
** compiler did not finish in time, the VM should run instead). */
Game *compiled_new(const Program *p, char *why, size_t n, int *status);
/* The compiled tier when p's object is already in the cache (nothing is
** built or made); else NULL with *status EXIT_OK (also when the tier
** cannot take p's rules), or the error of a start block that failed
** (EXIT_RUNTIME, reported), or out of memory (EXIT_LIMIT). */
Game *compiled_cached(const Program *p, int *status);
/* compiled_new with the compiler's error output thrown away. */
Game *compiled_build_quietly(const Program *p, char *why, size_t n, int *status);

/* `--engine auto` for a long job (compiled/autotier.c).  engine_auto_job:
** the job's perft depth and random games (0: none; main.c sets them).
** engine_job_is_long: a short probe of g (on the VM) says whether the
** job is long enough to build the compiled tier for (-1: a rule failed
** in the probe, g is spent).
** engine_auto_build_off: GSOLVE_AUTO_BUILD=0 (the test suite).
** compiled_auto: builds the tier, with one line on err unless quiet;
** NULL and *status EXIT_OK when no compiler works (the VM, silently),
** else a stop, a start block that failed or out of memory. */
void engine_auto_job(int perft_depth, long playouts);
int engine_job_is_long(Game *g);
int engine_auto_build_off(void);
Game *compiled_auto(const Program *p, int quiet, FILE *err, int *status);

/* The engine for a compiled game: the native one the game declares when
** it supports these parameters (ENGINE_AUTO: else the VM, with a note on
** err unless quiet; ENGINE_AUTO_LONG: else the compiled tier if its
** object is cached, else the VM), always the VM with ENGINE_VM, the compiled tier with
** ENGINE_COMPILED; NULL with *status set and the error reported
** (ENGINE_NATIVE without a native engine, ENGINE_COMPILED without a C
** compiler, out of memory, a start block that fails). */
Game *engine_new(const Program *p, EngineChoice choice, int quiet, FILE *err, int *status);

#endif
