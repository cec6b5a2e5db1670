/*
** fnv.h -- FNV-1a, the 64-bit byte hash of the files' checksums, the
** strategy files' lookups and the tests that compare positions by a
** hash: one definition, inline.
*/
#ifndef GSOLVE_FNV_H
#define GSOLVE_FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV_OFFSET 0xcbf29ce484222325ULL   /* FNV-1a's offset basis */
#define FNV_PRIME  0x100000001b3ULL

/* h, then the n bytes at p, hashed. */
static inline uint64_t fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * FNV_PRIME;
  return h;
}

#endif
