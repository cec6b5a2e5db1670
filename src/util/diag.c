/*
** diag.c -- printing diagnostics: with the offending line and a caret,
** or the plain "gsolve: error: ..." (diag_fail, diag_plain).
*/
#include "util/diag.h"

#include <stdarg.h>
#include "util/status.h"

void diag_init(Diag *d, const char *filename, const char *text, size_t len,
               FILE *out) {
  d->filename = filename;
  d->text = text;
  d->len = len;
  d->out = out;
  d->errors = 0;
  d->mute = NULL;
}

void diag_line_col(const Diag *d, int offset, int *line, int *col) {
  int l = 1, c = 1;
  if (offset < 0) offset = 0;
  if ((size_t)offset > d->len) offset = (int)d->len;
  for (int i = 0; i < offset; i++) {
    if (d->text[i] == '\n') { l++; c = 1; }
    else c++;
  }
  *line = l;
  *col = c;
}

/* Prints the source line holding `at.start`, then a caret under the span
** (clipped to that line).  Control characters print as spaces so binary
** junk cannot garble the terminal. */
static void print_excerpt(const Diag *d, Span at) {
  size_t start = at.start < 0 ? 0 : (size_t)at.start;
  if (start > d->len) start = d->len;
  size_t bol = start, eol = start;
  while (bol > 0 && d->text[bol - 1] != '\n') bol--;
  while (eol < d->len && d->text[eol] != '\n') eol++;
  if (eol - bol > 200) {           /* very long line: show a window */
    if (start - bol > 100) bol = start - 100;
    if (eol - bol > 200) eol = bol + 200;
  }
  for (size_t i = bol; i < eol; i++) {
    unsigned char ch = (unsigned char)d->text[i];
    fputc(ch == '\t' ? '\t' : (ch < 32 || ch == 127) ? ' ' : ch, d->out);
  }
  fputc('\n', d->out);
  for (size_t i = bol; i < start; i++)
    fputc(d->text[i] == '\t' ? '\t' : ' ', d->out);
  fputc('^', d->out);
  size_t end = at.end > at.start ? (size_t)at.end : start + 1;
  if (end > eol) end = eol;
  for (size_t i = start + 1; i < end; i++) fputc('~', d->out);
  fputc('\n', d->out);
}

void diag_report(Diag *d, const char *kind, Span at, const char *fmt, ...) {
  if (d->mute && *d->mute) {
    if (kind[0] == 'e') d->errors++;
    return;
  }
  int is_error = kind[0] != 'n';   /* notes do not count ... */
  if (is_error) d->errors++;
  if (d->errors > DIAG_MAX_ERRORS) {         /* ... but stop with the errors */
    if (is_error && d->errors == DIAG_MAX_ERRORS + 1)
      fprintf(d->out, "%s: note: too many errors, stopping reports (limit is %d)\n",
              d->filename, DIAG_MAX_ERRORS);
    return;
  }
  int line, col;
  diag_line_col(d, at.start, &line, &col);
  fprintf(d->out, "%s:%d:%d: %s: ", d->filename, line, col, kind);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(d->out, fmt, ap);
  va_end(ap);
  fputc('\n', d->out);
  print_excerpt(d, at);
}

static FILE *transient_f;          /* a progress line is on it ... */
static int transient_width;        /* ... this wide */

void diag_transient(FILE *f, int width) {
  transient_f = f;
  transient_width = width;
}

void diag_clear_transient(void) {
  if (transient_f == NULL) return;
  fprintf(transient_f, "\r%*s\r", transient_width, "");
  fflush(transient_f);
  transient_f = NULL;
}

static void vplain(FILE *err, const char *kind, const char *fmt, va_list ap) {
  diag_clear_transient();
  if (err == NULL) return;
  fprintf(err, "gsolve: %s: ", kind);
  vfprintf(err, fmt, ap);
  fputc('\n', err);
}

void diag_plain(FILE *err, const char *kind, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vplain(err, kind, fmt, ap);
  va_end(ap);
}

int diag_vfail(FILE *err, int status, const char *fmt, va_list ap) {
  vplain(err, "error", fmt, ap);
  return status;
}

int diag_fail(FILE *err, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vfail(err, status, fmt, ap);
  va_end(ap);
  return status;
}

int diag_out_of_memory(FILE *err) {
  return diag_fail(err, EXIT_LIMIT, "out of memory");
}
