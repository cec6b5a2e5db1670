/*
** fuzz_http.c -- libFuzzer harness: the request parser of gsolve serve
** (src/cli/serve_request.c), on any bytes as a request target: the path,
** the query string, percent escapes, the moves and the parameters.
**
** Two served games (tictactoe: m, n, k; nim: heaps, misere) stand for the
** server's list.  Every answer must be 200 or a 4xx with a message; a
** 200 must name a page file or a served game, the moves must be printable
** ASCII with single spaces, each parameter one of the game's, given
** once, with a value of letters, digits and , . - _ alone (what the
** server puts on a child's command line).  Anything else aborts.
**
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined;
** fuzz/replay.c drives the same entry point over fuzz/corpus_http.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/serve_request.h"

static const ServedGame games[2] = {
  { "tictactoe", "/nonexistent/tictactoe.game", "Tic-tac-toe", 3, { "m", "n", "k" } },
  { "nim", "/nonexistent/nim.game", "Nim", 2, { "heaps", "misere" } },
};

static void bad(const char *what) {
  fprintf(stderr, "fuzz_http: %s\n", what);
  abort();
}

int fuzz_http_one(const uint8_t *data, size_t size) {
  char *t = malloc(size + 1), err[SERVE_MAX_ERROR];
  Request *q = malloc(sizeof *q);
  if (t == NULL || q == NULL) bad("out of memory");
  memcpy(t, data, size);
  t[size] = '\0';
  int st = serve_parse(t, size, games, 2, q, err);
  if (st != 200) {
    if (st < 400 || st > 499) bad("a status neither 200 nor 4xx");
    if (err[0] == '\0' || strlen(err) >= SERVE_MAX_ERROR) bad("an error without a message");
  } else if (q->ep == EP_FILE) {
    if (q->file == NULL || serve_web_file(q->file) == NULL) bad("a page that is not one");
  } else if (q->ep != EP_GAMES) {
    if (q->game < 0 || q->game > 1) bad("no served game");
    const char *m = q->moves;
    if (m[0] == ' ') bad("moves start with a space");
    for (size_t i = 0; m[i]; i++) {
      if (m[i] < 0x20 || m[i] > 0x7e) bad("moves not printable");
      if (m[i] == ' ' && (m[i + 1] == ' ' || m[i + 1] == '\0')) bad("moves with extra spaces");
    }
    for (int i = 0; i < q->nparams; i++) {
      if (q->param[i] < 0 || q->param[i] >= games[q->game].nparams) bad("not a parameter");
      for (int j = 0; j < i; j++)
        if (q->param[j] == q->param[i]) bad("a parameter twice");
      if (q->value[i][0] == '\0') bad("an empty value");
      for (const char *s = q->value[i]; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,.-_", *s))
          bad("a value with a byte outside its alphabet");
    }
    if (q->ep == EP_COMPUTER && (q->level < 0 || q->level > SERVE_MAX_DEPTH)) bad("a level out of range");
    if (q->ep == EP_TREE && (q->depth < 1 || q->depth > SERVE_MAX_DEPTH)) bad("a depth out of range");
  }
  free(t);
  free(q);
  return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_http_one(data, size);
}
#endif
