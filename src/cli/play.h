/*
** play.h -- `gsolve play FILE`: a person against the computer (or the
** computer against itself) in the terminal, on any game the solvers take.
*/
#ifndef GSOLVE_PLAY_H
#define GSOLVE_PLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "game/fen.h"
#include "game/game.h"

#define PLAY_PERFECT 0          /* --level perfect: solve exactly */
#define PLAY_DEFAULT_LEVEL 4    /* --level when none is given */

typedef struct PlayOptions {
  int level;              /* search depth; PLAY_PERFECT: exact solve */
  int computer_first;     /* --first computer: it plays the first player */
  int self_play;          /* --self-play: it plays every side */
  int show_evals;         /* --show-evals: each move's value after its move */
  int ascii;              /* --ascii: the engine's plain drawing */
  int seed_set;           /* --seed given */
  uint64_t seed;          /* the tie-break generator's seed */
  const char *strategy;   /* --play-strategy FILE: the computer's moves */
} PlayOptions;

/* The defaults: level 4, the person first, a seed from the clock. */
void play_defaults(PlayOptions *o);

/* Whether option `name` (e.g. "--level") is one of play's and takes a
** value. */
int play_is_option(const char *name);
int play_option_takes_value(const char *name);

/* Applies option `name` with its value (NULL for a flag); EXIT_OK or
** EXIT_USAGE after a message on stderr. */
int play_set_option(PlayOptions *o, const char *name, const char *val);

/* Plays a game on g from its current position (the --position moves,
** base_ply of them, already played), reading the person's commands from
** `in` and drawing on `out`.  `title` names the game and its parameters;
** `pieces`, the game's pieces (NULL: none), has moves said in standard
** algebraic notation too.  Returns EXIT_OK (the game ended, or the person
** quit) or the status of an error (a rule failing at run time, out of
** memory), reported. */
int play_run(Game *g, int base_ply, const char *title, size_t tt_mib,
             const PlayOptions *o, const FenBoard *pieces, FILE *in, FILE *out);

/* play_input.c: one line of the person's, trimmed, into line (size
** bytes, PLAY_LINE_MAX in play).  PLAY_READ_LINE; PLAY_READ_REFUSED for a
** line longer than size - 1 bytes or with a NUL byte (said on out, the
** line read to its end); PLAY_READ_EOF at the end of the input; or
** -status after a message on stderr: a signal or --time-limit (at once:
** EXIT_INTERRUPTED or EXIT_LIMIT, from play_stopped), or no line end in
** PLAY_LINE_SKIP bytes (EXIT_USAGE).  echo: write the line on out (input
** that is not a terminal). */
#define PLAY_LINE_MAX 1024          /* longest line read, its end included */
#define PLAY_LINE_SKIP (1 << 20)    /* bytes of one line read, at most */
enum { PLAY_READ_EOF, PLAY_READ_LINE, PLAY_READ_REFUSED };
int play_read_line(FILE *in, FILE *out, int echo, char *line, size_t size);
/* Play stopped by a signal or --time-limit: said on stderr; the status
** negated. */
int play_stopped(void);

/* play_mcts.c: information-set MCTS for the mover at --level's budget
** (25 * 2^level iterations; perfect: the most), judged by the payoffs
** `base` paid so far; what --show-evals prints of it. */
struct IsmctsResult;
int play_mcts_level(int level);
int play_mcts_think(Game *g, int level, uint64_t seed, const int64_t *base,
                    struct IsmctsResult *r);
void play_mcts_show(Game *g, const struct IsmctsResult *r, FILE *out);

#endif
