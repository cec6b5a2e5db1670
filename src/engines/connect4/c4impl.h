/*
** c4impl.h -- the solver's two compilations (c4search.h over 64-bit and
** over 128-bit words), each a table of the functions c4solve.c calls.
*/
#ifndef GSOLVE_C4IMPL_H
#define GSOLVE_C4IMPL_H

#include "engines/connect4/c4solve.h"

typedef struct C4Impl {
  void *(*make)(int width, int height, const C4Config *cfg);
  void (*free)(void *s);
  void (*reset)(void *s);
  void (*touch)(void *s, size_t budget);
  size_t (*shrunk_bytes)(const void *s);
  int (*solve)(void *s, const C4Query *q, C4Answer *a);
  /* NULL where books are not kept (boards past 64 bits) */
  int (*make_book)(void *s, int to, C4Book *book, uint64_t *nodes,
                   void (*progress)(int stones, size_t done, size_t positions, uint64_t nodes,
                                    void *arg), void *arg);
  int (*check_book)(void *s, const C4Book *book, const char **why);   /* likewise */
} C4Impl;

extern const C4Impl c4_impl64, c4_impl128;

#endif
