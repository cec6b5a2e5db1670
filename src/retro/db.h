/*
** db.h -- retrograde results saved to a file and read back.
**
** File layout (integers little-endian):
**
**   offset  size  field
**   0       8     magic "GSOLVEDB"
**   8       4     format version (3, or 4 with Grundy values; 2 wrote
**                 the records in the order the solver found them, 1 had
**                 no engine name)
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
**   ..      N*(K+10) records, in increasing order of their keys (memcmp),
**                 so that one process and N MPI ranks write the same
**                 bytes: key, value (1 win, 2 loss, 3 draw), mover,
**                 distance (4 bytes; 0xffffffff: a draw forever), score
**                 (4 bytes); format 4 (--solver retro --grundy --db
**                 FILE, docs/cgt.md) adds the position's Grundy value
**                 (4 bytes): N*(K+14).  A table without Grundy values is
**                 written in format 3, byte for byte as before
**   ..      8     FNV-1a 64 checksum of every byte before it
**
** The file is written through util/file.h (a temporary file of a random
** name renamed into place), so it is never left half written under its
** name.
*/
#ifndef GSOLVE_DB_H
#define GSOLVE_DB_H

#include <stdint.h>
#include <stdio.h>
#include "retro/retro.h"
#include "util/file.h"

#define DB_VERSION 3
#define DB_VERSION_GRUNDY 4   /* format 3 + a Grundy value per record */

/* Writes r's labels; EXIT_OK or EXIT_IO (reported on err). */
int db_write(const Retro *r, const char *path, const char *game, const char *params,
             uint64_t rules_hash, FILE *err);

/* The writer underneath, for a solver that holds its records in pieces
** (retro_mpi.c merges the ranks' shares): begin writes the header, then
** `stored` records in increasing key order, then end adds the checksum
** and renames the file into place.  On a failure after begin, file_abort
** (util/file.h) on o->file removes the temporary file. */
typedef struct DbWriter {
  FileOut file;
  uint64_t sum;
} DbWriter;
int db_write_begin(DbWriter *o, const Retro *r, uint64_t positions, uint64_t stored,
                   const char *path, const char *game, const char *params, uint64_t rules_hash,
                   FILE *err);
void db_write_record(DbWriter *o, const void *key, size_t key_bytes, uint8_t value,
                     uint8_t mover, uint32_t dist, int32_t score);
int db_write_end(DbWriter *o, FILE *err);

/* The indices 0..n-1 of k's keys in increasing key order (malloc'd;
** NULL when out of memory). */
uint32_t *db_key_order(const KeySet *k, size_t n);

/* Reads a database into r (initialised with retro_init on the game it is
** meant for), refusing one built for another game, parameters or rules,
** or forged: records that cannot be labels, a header claiming more
** positions than the stored ones stand for, records that disagree with
** the rules (up to DB_VERIFY_POSITIONS of them reachable from the current
** position; then retro_answer checks the records of every position it
** answers, --pv's every step too).  path must outlive r.  EXIT_OK,
** EXIT_IO, EXIT_USAGE (wrong database) or EXIT_LIMIT. */
int db_read(Retro *r, const char *path, const char *game, const char *params,
            uint64_t rules_hash, FILE *err);

/* Checks every record of the table db_read loaded against the rules and
** its children's records (a sample is checked at the load, and the
** records an answer reads as it answers, retro_answer): for readers
** that use them all, --dump-db and --stats.  Each position is set from
** its key when the engine can (set_state, unpack); else every stored
** position reachable from the current one is walked.  EXIT_OK, or
** EXIT_USAGE "'FILE' is corrupt: ..." (or a stop's status), reported on
** err. */
int db_verify_all(Retro *r, FILE *err);

/* --dump-db: the counts of wins, losses and draws by distance. */
void db_dump(const Retro *r, FILE *out, int json);

#endif
