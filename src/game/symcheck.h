/*
** symcheck.h -- whether the symmetries a game declares hold where a
** solver will use them.
**
** A symmetry is only sound if it maps a position onto one with the same
** mover, the same end and the images of the same successors; a wrong one
** (a rotation in Domineering, a flip with a pawn on the board) makes the
** tables' answers wrong without a word.  These tests compare a position
** with its images under the group's elements, through the game
** interface alone (symmetries, symmetry_image, set_state,
** canonical_key): an engine without them has nothing to check.
*/
#ifndef GSOLVE_SYMCHECK_H
#define GSOLVE_SYMCHECK_H

#include <stdio.h>
#include "game/game.h"

/* Elements compared at one position, at most (spread over the group). */
#define SYMCHECK_MAX_ELEMENTS 64

/* The current position against its images: 0 when every element tested
** maps it onto a position with the same mover, end and successors (up
** to the symmetries), or when the engine offers nothing to test; else 1
** with the reason in why (size bytes); -1 out of memory.  The current position is the
** same afterwards.  A rule failing at run time is trapped and counted
** as a failure with the rule's message already printed. */
int symmetry_holds_not(Game *g, char *why, size_t size);

/* Refuses g's current position when a declared symmetry does not hold
** on it: EXIT_OK, EXIT_LIMIT out of memory, or EXIT_USAGE after "gsolve: error: WHAT: the game's
** symmetries do not hold on this position: REASON" on err. */
int position_check_symmetry(Game *g, const char *what, FILE *err);

/* --check-symmetry N: N positions met on random lines of play from the
** current position (seeded), each tested as above.  Prints a summary or
** the first failure with the line that reached it on out; EXIT_OK, or
** EXIT_BAD_GAME when a declared symmetry fails (the game file is
** wrong), EXIT_USAGE when the engine cannot test symmetries. */
int symmetry_walk(Game *g, long positions, uint64_t seed, FILE *out, FILE *err);

#endif
