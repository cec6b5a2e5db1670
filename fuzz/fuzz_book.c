/*
** fuzz_book.c -- libFuzzer harness: the Connect Four opening-book reader
** (engines/connect4/c4book.c) on any bytes, for the boards 4x4 and 5x4;
** a book it accepts is then probed (every key it holds and a few it may
** not) and saved again, and the saved copy must load back identically.
**
** The reader takes a path: the input goes to a temporary file first.
** Seeds (fuzz/corpus_book) are books made with
**   gsolve games/connect4.game -D width=4 -D height=4 --make-book FILE --book-depth 2
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "engines/connect4/c4book.h"
#include "util/status.h"
#include "fuzz_checksum.h"

/* The input as a file, and a second name for the copy saved back. */
static const char *temp_name(const char *what) {
  static char path[2][64];
  int i = what[0] == 'c';
  snprintf(path[i], sizeof path[i], "/tmp/gsolve-fuzz-book-%s-%ld", what, (long)getpid());
  return path[i];
}

/* Saves b and reads it back: the same entries, or abort. */
static void round_trip(const C4Book *b, FILE *devnull) {
  const char *copy = temp_name("copy");
  C4Book *again = NULL;
  unlink(copy);
  if (c4book_save(b, copy, devnull) != EXIT_OK) abort();
  if (c4book_load(copy, b->width, b->height, &again, devnull) != EXIT_OK || again->n != b->n ||
      again->from != b->from || again->to != b->to ||
      memcmp(again->key, b->key, b->n * sizeof *b->key) != 0 ||
      memcmp(again->score, b->score, b->n) != 0)
    abort();
  c4book_free(again);
  unlink(copy);
}

static void run_book(const uint8_t *data, size_t size) {
  static const int boards[][2] = { { 4, 4 }, { 5, 4 } };
  const char *path = temp_name("input");
  FILE *devnull = fopen("/dev/null", "w"), *f = fopen(path, "wb");
  if (!devnull || !f) abort();
  fwrite(data, 1, size, f);
  fclose(f);
  for (int i = 0; i < 2; i++) {
    C4Book *b = NULL;
    if (c4book_load(path, boards[i][0], boards[i][1], &b, devnull) != EXIT_OK) continue;
    int score;
    for (size_t k = 0; k < b->n; k++)
      if (!c4book_get(b, b->key[k], &score) || score != b->score[k]) abort();
    (void)c4book_get(b, 0, &score);
    (void)c4book_get(b, UINT64_MAX, &score);
    round_trip(b, devnull);
    c4book_free(b);
  }
  unlink(path);
  fclose(devnull);
}

/* Each input as given, then with a valid checksum. */
int fuzz_book_one(const uint8_t *data, size_t size) {
  return fuzz_as_given_and_fixed(data, size, run_book);
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_book_one(data, size);
}
#endif
