/*
** fuzz_checksum.h -- for the harnesses of the formats that end in an
** FNV-1a checksum of the rest (fuzz_db.c, fuzz_book.c): each input runs
** as given, then with its checksum made valid, since almost no mutation
** would get past the checksum to the checks behind it.
*/
#ifndef GSOLVE_FUZZ_CHECKSUM_H
#define GSOLVE_FUZZ_CHECKSUM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The input with its last 8 bytes replaced by the FNV-1a checksum of the
** rest (little-endian, as both formats store it). */
static uint8_t *fuzz_with_checksum(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy) abort();
  memcpy(copy, data, size);
  if (size >= 8) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < size - 8; i++) { h ^= copy[i]; h *= 0x100000001b3ULL; }
    for (int i = 0; i < 8; i++) copy[size - 8 + (size_t)i] = (uint8_t)(h >> (8 * i));
  }
  return copy;
}

/* run(input), then run(input with a valid checksum); 0 for libFuzzer. */
static int fuzz_as_given_and_fixed(const uint8_t *data, size_t size,
                                   void (*run)(const uint8_t *, size_t)) {
  uint8_t *fixed = fuzz_with_checksum(data, size);
  run(data, size);
  run(fixed, size);
  free(fixed);
  return 0;
}

#endif
