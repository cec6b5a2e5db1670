/*
** parse.c -- runs the Flex scanner and the Bison parser over a source.
*/
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include "lang/ast.h"
#include "parser.h"
#include "lexer.h"

void gs_lex_free_all(ParseState *ps);    /* lexer.l */

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_length(const unsigned char *s, size_t n) {
  size_t k;
  uint32_t c;
  if (s[0] < 0x80) return 1;
  if (s[0] >= 0xC2 && s[0] <= 0xDF) { k = 2; c = s[0] & 0x1F; }
  else if (s[0] >= 0xE0 && s[0] <= 0xEF) { k = 3; c = s[0] & 0x0F; }
  else if (s[0] >= 0xF0 && s[0] <= 0xF4) { k = 4; c = s[0] & 0x07; }
  else return 0;
  if (k > n) return 0;
  for (size_t i = 1; i < k; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    c = (c << 6) | (s[i] & 0x3F);
  }
  /* No overlong forms, surrogates or code points beyond U+10FFFF. */
  if ((k == 3 && c < 0x800) || (k == 4 && (c < 0x10000 || c > 0x10FFFF))
      || (c >= 0xD800 && c <= 0xDFFF))
    return 0;
  return k;
}

/* A source must be ASCII or UTF-8 text: a UTF-16 file (a byte order mark,
** or a zero byte among the first two), the first NUL byte and the first
** invalid UTF-8 byte are reported here, once, rather than as a cascade of
** stray bytes.  NUL is refused before the lexer because Flex takes it for
** its end-of-buffer mark and rescans the token from its start at each one:
** a comment of 48 KB holding 18,000 NULs took 3.7 s to skip. */
static int check_encoding(ParseState *ps, const unsigned char *t, size_t len) {
  Span at = { 0, 1 };
  if (len >= 2 && ((t[0] == 0xFF && t[1] == 0xFE) || (t[0] == 0xFE && t[1] == 0xFF)
                   || t[0] == 0 || t[1] == 0)) {
    diag_error(ps->diag, at, "the file is in UTF-16 (or another wide encoding); "
               "gsolve reads ASCII or UTF-8 (convert it: iconv -f UTF-16 -t UTF-8)");
    return 1;
  }
  for (size_t i = 0; i < len;) {
    size_t k = t[i] ? utf8_length(t + i, len - i) : 0;
    if (k == 0) {
      at.start = (int)i;
      at.end = (int)i + 1;
      if (t[i] == 0)
        diag_error(ps->diag, at, "NUL byte (0x00) in the file: gsolve reads ASCII or "
                   "UTF-8 text");
      else
        diag_error(ps->diag, at, "invalid UTF-8 (byte 0x%02x): gsolve reads ASCII "
                 "or UTF-8 text", t[i]);
      return 1;
    }
    i += k;
  }
  return 0;
}

Node *ast_parse(ParseState *ps, const char *text, size_t len) {
  yyscan_t scanner;
  jmp_buf fatal;
  ps->root = NULL;
  ps->offset = 0;
  ps->braces = 0;
  ps->decl_start = 1;
  if (len > AST_MAX_SOURCE) {
    Span at = { 0, 0 };
    diag_error(ps->diag, at, "source too large (%zu bytes; limit is %d)", len,
               AST_MAX_SOURCE);
    return NULL;
  }
  if (check_encoding(ps, (const unsigned char *)text, len)) return NULL;
  /* A UTF-8 byte order mark is skipped; offsets still count it. */
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) ps->offset = 3;
  /* An allocation failure inside Flex's code lands here (lexer.l). */
  ps->lexmem = NULL;
  ps->fatal = &fatal;
  if (setjmp(fatal)) {
    gs_lex_free_all(ps);
    ps->fatal = NULL;
    ps->oom = 1;
    return NULL;
  }
  if (gslex_init_extra(ps, &scanner)) { ps->oom = 1; return NULL; }
  YY_BUFFER_STATE buf = gs_scan_bytes(text + ps->offset, (int)len - ps->offset, scanner);
  if (!buf) { ps->oom = 1; gslex_destroy(scanner); return NULL; }
  int rc = gsparse(scanner, ps);
  gs_delete_buffer(buf, scanner);
  gslex_destroy(scanner);
  ps->fatal = NULL;
  /* 2: the parser ran out of stack (deep nesting, already reported as an
  ** error) or of memory. */
  if (rc == 2 && ps->diag->errors == 0) ps->oom = 1;
  /* Every later pass may recurse over expressions: bound them here. */
  if (rc == 0 && ps->diag->errors == 0 && !ps->oom) (void)ast_check_depth(ps, ps->root);
  return ps->root;
}
