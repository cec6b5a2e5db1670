/*
** treedot.h -- the game tree as a Graphviz DOT graph (--tree-dot).
*/
#ifndef GSOLVE_TREEDOT_H
#define GSOLVE_TREEDOT_H

#include <stdint.h>
#include <stdio.h>
#include "game/game.h"

#define TREEDOT_MAX_NODES 100000  /* a bigger tree is refused (exit 5) */

typedef struct TreeDotStats {
  uint64_t nodes;         /* nodes drawn */
  uint64_t edges;         /* moves drawn */
  uint64_t cutoffs;       /* nodes drawn at the depth limit, not expanded */
  uint64_t pruned;        /* moves left out by --tree-prune */
} TreeDotStats;

/* Draws the tree of the engine's current position, `depth` plies deep
** (0: to the end of every line), to `path`: DOT text, or an image made
** by Graphviz's dot when the name ends in .svg, .png or .pdf.  Every
** position on a line is a node of its own (a tree, not a graph of
** positions).  A node's value is given where the tree settles it (every
** line below it ends within the depth); with `prune`, a settled node
** keeps only the moves that reach its result (win, draw or loss) and
** drops those that do worse.  Returns EXIT_OK or an error's status
** (reported on err). */
int treedot_write(Game *g, int depth, int prune, const char *path,
                  TreeDotStats *stats, FILE *err);

#endif
