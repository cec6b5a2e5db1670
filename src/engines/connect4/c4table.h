/*
** c4table.h -- the Connect Four solver's transposition table (c4table.c):
** exact keys stored compactly, buckets of one cache line, shared safely
** between the solver's threads.
*/
#ifndef GSOLVE_C4TABLE_H
#define GSOLVE_C4TABLE_H

#include <stddef.h>
#include <stdint.h>

typedef struct C4Table C4Table;

/* A table of about `mib` MiB (at least 512 KiB), or a smaller one when
** the memory refuses that much (c4t_capacity says); NULL when out of
** memory. */
C4Table *c4t_new(size_t mib);
void c4t_free(C4Table *t);

/* The datum stored with `key`, or 0 if it is not in the table: 13 bits,
** a value byte (1..255) and above it a 5-bit move.  Keys are any 64-bit
** values; two different keys never share an entry. */
int c4t_get(const C4Table *t, uint64_t key);

/* Stores datum `val` (a value byte 1..255, plus a move << 8) with `key`.  `work` (the log2 of the nodes
** spent to learn it) decides which entry of a full bucket gives way. */
void c4t_put(C4Table *t, uint64_t key, int val, int work);

/* Starts loading the bucket of `key` into the cache: the search asks for
** its children's buckets before it visits them. */
void c4t_prefetch(const C4Table *t, uint64_t key);

/* The same for keys of 128 bits, (lo, hi): boards past 64 bits.  A table
** takes keys of one width only (a wide entry fills two words). */
int c4t_get_wide(const C4Table *t, uint64_t lo, uint64_t hi);
void c4t_put_wide(C4Table *t, uint64_t lo, uint64_t hi, int val, int work);
void c4t_prefetch_wide(const C4Table *t, uint64_t lo, uint64_t hi);

/* Forgets everything (cheaply when little was written since). */
void c4t_clear(C4Table *t);

/* How many entries the table holds, for --stats. */
size_t c4t_capacity(const C4Table *t);

/* The table's bytes when it had to halve to fit the memory, else 0. */
size_t c4t_shrunk_bytes(const C4Table *t);

#endif
