/*
** diag.h -- diagnostics: for .game sources, with a caret, and the plain
** "gsolve: error: ..." of everything else (diag_fail, diag_plain).  Every
** message gsolve writes goes through here: no other file spells out
** "gsolve: error: " (a signal handler, which may only write(2), takes
** DIAG_ERROR_HEAD).
**
** Locations are byte offsets into the source; line and column are computed
** only when a message is printed.  Every message reads
**   file:line:col: error: message
**   <the source line>
**       ^~~~
*/
#ifndef GSOLVE_DIAG_H
#define GSOLVE_DIAG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define DIAG_MAX_ERRORS 50   /* stop reporting after this many errors */

typedef struct Diag {
  const char *filename;
  const char *text;          /* the source, not necessarily NUL-terminated */
  size_t len;
  FILE *out;                 /* where messages go */
  int errors;                /* errors reported so far */
  const int *mute;           /* when set and *mute is nonzero (the compiler
                             ** ran out of memory), errors are counted but
                             ** not printed: they would be spurious */
} Diag;

/* A span of the source: [start, end) in bytes. */
typedef struct Span {
  int start, end;
} Span;

void diag_init(Diag *d, const char *filename, const char *text, size_t len,
               FILE *out);
/* Reports `kind` ("error", "note", "runtime error") at span. */
void diag_report(Diag *d, const char *kind, Span at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#define diag_error(d, at, ...) diag_report((d), "error", (at), __VA_ARGS__)
/* Line (1-based) and column (1-based, in bytes) of an offset. */
void diag_line_col(const Diag *d, int offset, int *line, int *col);

#define DIAG_ERROR_HEAD "gsolve: error: "   /* how a plain error begins */

/* Errors that are not about a place in the source (out of memory, a
** limit, a stop, the command line): prints "gsolve: error: <message>" and
** a newline on err unless it is NULL, and returns status, so that a caller
** can write `return diag_fail(err, EXIT_USAGE, "unknown solver '%s'", s);`. */
int diag_fail(FILE *err, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int diag_vfail(FILE *err, int status, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* The one out-of-memory message: "gsolve: error: out of memory" on err
** (unless NULL); returns EXIT_LIMIT. */
int diag_out_of_memory(FILE *err);
/* A plain message of another kind ("warning", "note"), or an error whose
** status the caller keeps elsewhere: "gsolve: KIND: <message>" on err
** unless it is NULL. */
void diag_plain(FILE *err, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A line redrawn in place on a terminal (the progress display) is
** "transient": a message printed meanwhile would land on its end.
** diag_transient(f, width) says such a line of `width` columns is on f
** (f NULL: none is); diag_clear_transient() erases it, as diag_vfail and
** stop_message do before their message. */
void diag_transient(FILE *f, int width);
void diag_clear_transient(void);

#endif
