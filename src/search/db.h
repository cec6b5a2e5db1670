/*
** db.h -- retrograde results saved to a file and read back.
**
** File layout (integers little-endian):
**
**   offset  size  field
**   0       8     magic "GSOLVEDB"
**   8       4     format version (2; 1 had no engine name)
**   12      4     key bytes K (one stored state)
**   16      4     1 if keys are canonical forms (symmetry), else 0
**   20      4     number of players
**   24      8     hash of the compiled rules (gs_rules_hash)
**   32      8     reachable positions
**   40      8     stored positions N
**   48      4+n   game name (length, bytes)
**   ..      4+n   parameters as text (length, bytes)
**   ..      4+n   the engine that built it ("vm", "native-connect4", ...),
**                 whose format the keys are in
**   ..      N*(K+10) records: key, value (1 win, 2 loss, 3 draw), mover,
**                 distance (4 bytes; 0xffffffff: a draw forever), score
**                 (4 bytes)
**   ..      8     FNV-1a 64 checksum of every byte before it
**
** The file is written to NAME.tmp and renamed, so it is never left half
** written under its name.
*/
#ifndef GSOLVE_DB_H
#define GSOLVE_DB_H

#include <stdint.h>
#include <stdio.h>
#include "search/retro.h"

#define DB_VERSION 2

/* Writes r's labels; EXIT_OK or EXIT_IO (reported on err). */
int db_write(const Retro *r, const char *path, const char *game, const char *params,
             uint64_t rules_hash, FILE *err);

/* Reads a database into r (initialised with retro_init on the game it is
** meant for), refusing one built for another game, parameters or rules.
** EXIT_OK, EXIT_IO, EXIT_USAGE (wrong database) or EXIT_LIMIT. */
int db_read(Retro *r, const char *path, const char *game, const char *params,
            uint64_t rules_hash, FILE *err);

/* --dump-db: the counts of wins, losses and draws by distance. */
void db_dump(const Retro *r, FILE *out, int json);

#endif
