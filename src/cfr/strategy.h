/*
** strategy.h -- strategy files: the average strategy CFR found, written
** by `--strategy FILE`, read by `--play-strategy FILE` for `gsolve play`
** and `--playouts`.
**
** The format (docs/cli.md, "Strategy files"): UTF-8 text, one line per
** information set, fields separated by one tab:
**
**   PLAYER <tab> INFOSTATE <tab> MOVE <tab> PROB [<tab> MOVE <tab> PROB ...]
**
** PLAYER is the player's name as the game declares it, INFOSTATE the
** printable text of the player's information state (tabs and line
** breaks in it written as blanks), MOVE a legal move in the game's
** notation, PROB its probability as a decimal number.  Lines starting
** with '#' are comments; the first line is "# gsolve strategy 1".
*/
#ifndef GSOLVE_STRATEGY_H
#define GSOLVE_STRATEGY_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"
#include "cfr/gametree.h"

#define STRATEGY_MAGIC "# gsolve strategy 1\n"
#define STRATEGY_MAX_BYTES ((size_t)1 << 30)   /* a file to read, at most */

typedef struct StrategyEntry {
  int player;
  const char *text;             /* the information state */
  uint32_t move;                /* its first move in moves[] */
  int nmoves;
} StrategyEntry;

typedef struct Strategy {
  char *data;                   /* the file, cut into strings in place */
  StrategyEntry *entries;
  size_t nentries;
  const char **names;           /* per move of an entry: its notation */
  double *prob;                 /* ... and probability */
  uint32_t *slots;              /* hash table: entry + 1, 0 empty */
  size_t nslots;
  char *scratch;                /* an information state's text */
  size_t scratch_size;
} Strategy;

/* Writes the strategy s of tree t (one probability per action) for game
** g into `path`, after a comment line `note`.  An exit status. */
int strategy_write(const char *path, Game *g, const GameTree *t, const double *s,
                   const char *note, FILE *err);

/* Reads `path` for game g (its player names); an exit status, reported
** as "FILE:LINE: ..." for a malformed line. */
int strategy_read(Strategy *st, const char *path, Game *g, FILE *err);
void strategy_free(Strategy *st);

/* The entry of (player, information state text), or -1. */
int64_t strategy_find(const Strategy *st, int player, const char *text);

/* The probabilities of the n legal moves (moves) of g's current
** position, a decision of its mover, under st, into prob: 1 when st has
** the mover's information state (moves it does not name get 0; all
** uniform if it gives every legal move 0), 0 when it does not (prob is
** then uniform), -1 out of memory. */
int strategy_probs(Strategy *st, Game *g, const Move *moves, int n, double *prob);

/* The printable information state of `player` at g's position into
** *buf (grown as needed, *size bytes); 0, or -1 out of memory. */
int strategy_state_text(Game *g, int player, char **buf, size_t *size);

#endif
