/*
** play_input.c -- the person's lines in `gsolve play` (play.h): read byte
** by byte and bounded, so that no input can hang play or slip a line by.
** A line longer than the buffer or with a NUL byte is refused whole (a
** NUL once made fgets's line look too long, and the next line was
** skipped); input without a line end stops after PLAY_LINE_SKIP bytes
** (/dev/zero spun for ever); Ctrl-C, SIGTERM and --time-limit stop it at
** once, even in the middle of an endless line.
*/
#include <errno.h>
#include <stdio.h>
#include "cli/play.h"
#include "util/diag.h"
#include "util/status.h"
#include "util/stop.h"

/* Play stopped by Ctrl-C, SIGTERM or --time-limit: said on stderr; the
** status negated, as person_turn returns it. */
int play_stopped(void) {
  int time = stop_requested == STOP_TIME;
  return -diag_fail(stderr, time ? EXIT_LIMIT : EXIT_INTERRUPTED, "%s; play stops",
                    time ? "time limit reached" : "interrupted");
}

/* Reads a line byte by byte into line (size bytes), trimmed.  PLAY_READ_LINE;
** PLAY_READ_REFUSED for a line longer than size - 1 bytes or with a NUL byte
** in it (said on out; the line is read to its end, never into the next
** one); PLAY_READ_EOF at the end of the input; or -status: a signal (at once,
** also in the middle of an endless line), or no line end within
** PLAY_LINE_SKIP bytes. */
int play_read_line(FILE *in, FILE *out, int echo, char *line, size_t size) {
  size_t len = 0, total = 0;
  int nul = 0, c;
  for (;;) {
    if (stop_requested) return play_stopped();
    c = getc(in);
    if (c == EOF) {
      if (stop_requested) return play_stopped();
      if (ferror(in) && errno == EINTR) { clearerr(in); continue; }   /* SIGCHLD and the like */
      if (total == 0) return PLAY_READ_EOF;
      break;   /* a last line without its line end */
    }
    if (c == '\n') break;
    if (++total > PLAY_LINE_SKIP) {
      return -diag_fail(stderr, EXIT_USAGE, "an input line longer than %d bytes: the input does "
                        "not look like moves and commands; play stops", PLAY_LINE_SKIP);
    }
    nul |= c == 0;
    if (len + 1 < size) line[len] = (char)c;
    len++;
  }
  if (nul || len + 1 > size) {
    if (nul) fputs("that line has a NUL byte in it: refused\n", out);
    else fprintf(out, "that line is longer than %zu bytes: refused\n", size - 1);
    return PLAY_READ_REFUSED;
  }
  line[len] = '\0';
  while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
    line[--len] = '\0';
  if (echo) fprintf(out, "%s\n", line);
  return PLAY_READ_LINE;
}
