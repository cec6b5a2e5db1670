/*
** retro_compact_cycles.h -- the compact retrograde form (--compact) for
** games whose positions recur (chess endgames) or are reached at several
** depths: every reachable position in one sorted Elias-Fano set of
** canonical keys (the table's single layer), its mover, score and
** distance bit-packed by rank, decided by passes over the undecided
** positions instead of through a move graph.  The values, distances and
** draws are the hash form's (retro.c).  See docs/performance.md
** ("Compact tables for games with cycles").
*/
#ifndef GSOLVE_RETRO_COMPACT_CYCLES_H
#define GSOLVE_RETRO_COMPACT_CYCLES_H

#include "retro/retro_compact.h"

/* Positions the probe of retro_compact_cycles_wanted expands at most. */
#define CYCLES_PROBE 32768

/* Whether --compact should take the form with cycles: 1 when a
** breadth-first walk of the first CYCLES_PROBE positions from the
** engine's current one meets a position at two depths; 0 when it does
** not, or when the compact form refuses the game (retro_compact_solve
** says why); -1 out of memory (reported, r->status set). */
int retro_compact_cycles_wanted(Retro *r);

/* retro_solve's work in that form: r->positions, stored, edges, labelled
** and the table r->cpt (one layer); then the answer into s->result. */
int retro_compact_cycles_solve(Retro *r, Search *s);

/* --stats' line on that form: its passes and expansions (nothing for a
** table of the layered form). */
void retro_compact_cycles_note(const Retro *r, FILE *f);

/* A table of this form read from a file (compact_db.c, format 3): the
** engine's current position's record checked against the rules and its
** children's records, by the hash form's rule (Retro.verify_here, before
** an answer); every record so checked (--stats, --dump-db: the values
** decoded whole first).  EXIT_OK, or EXIT_USAGE "'FILE' is corrupt: ..."
** reported. */
int retro_compact_cycles_check_here(Retro *r);
int retro_compact_cycles_verify(Retro *r);

#endif
