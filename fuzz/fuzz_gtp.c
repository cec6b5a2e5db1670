/*
** fuzz_gtp.c -- libFuzzer harness: the GTP command loop (cli/gtp.c).  The
** input is the command stream of two sessions, answered into /dev/null:
** one on games/go.game with its width and height declared 1..7 instead of
** 1..19 (so boardsize 8 and up take the same refusal path as 20 does on
** the real game, and no genmove or play works on a board slow enough to
** time the fuzzer out), one on games/tictactoe.game (no size, no komi).
** genmove has FUZZ_MOVE_SECONDS a move, --level 2 and a 1 MiB table.
**
** The games are read from games/ once: run from the top of the
** repository, as make fuzz and make test do.  A game that cannot be read
** aborts (a harness that runs nothing would pass every input).
**
** Built by `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
** Without libFuzzer, fuzz/replay.c drives the same entry point over files.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/gtp.h"

#define FUZZ_MOVE_SECONDS 0.005

typedef struct Source {
  const char *file;
  char *text;
  size_t len;
} Source;

/* Reads a game file whole; aborts if it cannot. */
static void load(Source *s, const char *file) {
  FILE *f = fopen(file, "rb");
  long n;
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0
      || (s->text = malloc((size_t)n + 1)) == NULL || fread(s->text, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "fuzz_gtp: cannot read %s (run from the top of the repository)\n", file);
    abort();
  }
  fclose(f);
  s->text[n] = '\0';
  s->len = (size_t)n;
  s->file = file;
}

/* Replaces each `from` in s by `to` (as long); aborts if there is none. */
static void narrow(Source *s, const char *from, const char *to) {
  size_t k = strlen(from);
  char *p = strstr(s->text, from);
  if (p == NULL || strlen(to) != k) {
    fprintf(stderr, "fuzz_gtp: '%s' is not in %s\n", from, s->file);
    abort();
  }
  for (; p != NULL; p = strstr(p + k, from)) memcpy(p, to, k);
}

static void session(const Source *s, const uint8_t *data, size_t size, FILE *out) {
  GtpOptions o = { .file = s->file, .text = s->text, .len = s->len, .defs = NULL,
                   .ndefs = 0, .level = 2, .tt_mib = 1 };
  FILE *in = fmemopen((void *)data, size, "r");
  if (in == NULL) return;
  (void)gtp_run_timed(&o, FUZZ_MOVE_SECONDS, in, out);
  fclose(in);
}

int fuzz_gtp_one(const uint8_t *data, size_t size) {
  static Source go, ttt;
  if (go.text == NULL) {
    load(&go, "games/go.game");
    narrow(&go, "param width: 1..19", "param width: 1..7 ");
    narrow(&go, "param height: 1..19", "param height: 1..7 ");
    load(&ttt, "games/tictactoe.game");
  }
  if (size == 0) return 0;      /* fmemopen wants a buffer */
  FILE *out = fopen("/dev/null", "w");
  if (out == NULL) return 0;
  session(&go, data, size, out);
  session(&ttt, data, size, out);
  fclose(out);
  return 0;
}

#ifndef FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return fuzz_gtp_one(data, size);
}
#endif
