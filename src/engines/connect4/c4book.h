/*
** c4book.h -- opening books for the Connect Four solver (c4book.c): the
** exact scores of every position up to some number of stones, made by
** gsolve itself (--make-book) and read back (--book).
*/
#ifndef GSOLVE_C4BOOK_H
#define GSOLVE_C4BOOK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Sorted keys (the smaller of a position's key and its mirror image's)
** and Pons' score of each, for positions of from..to stones. */
typedef struct C4Book {
  int width, height;
  int from, to;             /* stones on the board of the positions held */
  size_t n, cap;
  uint64_t *key;
  int8_t *score;
} C4Book;

C4Book *c4book_new(int width, int height);
void c4book_free(C4Book *b);

/* Adds entries of `stones` stones (unsorted, possibly repeated); 0, or -1
** when out of memory. */
int c4book_add(C4Book *b, int stones, const uint64_t *key, const int8_t *score, size_t n);

/* 1 and the score if `key` is in the book. */
int c4book_get(const C4Book *b, uint64_t key, int *score);

/* The file: "GSC4BOOK", then little-endian u32 version (1), width,
** height, from, to; u64 n; n records (u64 key, i8 score) in key order;
** u64 FNV-1a checksum of everything before it.  Both return an exit
** status (0 ok), after a message on `err`. */
int c4book_save(const C4Book *b, const char *path, FILE *err);
int c4book_load(const char *path, int width, int height, C4Book **out, FILE *err);

#endif
