/*
** export_gambit.h -- the game from the position in Gambit's file formats
** (export_gambit.c, docs/gambit.md).
*/
#ifndef GSOLVE_EXPORT_GAMBIT_H
#define GSOLVE_EXPORT_GAMBIT_H

#include <stdint.h>
#include <stdio.h>
#include "cfr/gametree.h"

#define NFG_MAX_PROFILES 1000000   /* strategy profiles an .nfg lists, at most */

typedef struct ExportStats {
  uint32_t nodes, infosets, ends;
} ExportStats;

/* Writes g's game from its current position to path (through util/file.h)
** as format "efg" (the extensive form) or "nfg" (the strategic form of a
** one-shot game), its tree within memory_limit bytes (0: none).  EXIT_OK
** or a status reported on err. */
int export_gambit(Game *g, const char *format, const char *path, size_t memory_limit,
                  ExportStats *stats, FILE *err);

#endif
