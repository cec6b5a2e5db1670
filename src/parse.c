/*
** parse.c -- runs the Flex scanner and the Bison parser over a source.
*/
#include <setjmp.h>
#include "ast.h"
#include "parser.h"
#include "lexer.h"

void gs_lex_free_all(ParseState *ps);    /* lexer.l */

Node *ast_parse(ParseState *ps, const char *text, size_t len) {
  yyscan_t scanner;
  jmp_buf fatal;
  ps->root = NULL;
  ps->offset = 0;
  if (len > AST_MAX_SOURCE) {
    Span at = { 0, 0 };
    diag_error(ps->diag, at, "source too large (%zu bytes; limit is %d)", len,
               AST_MAX_SOURCE);
    return NULL;
  }
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
  YY_BUFFER_STATE buf = gs_scan_bytes(text, (int)len, scanner);
  if (!buf) { ps->oom = 1; gslex_destroy(scanner); return NULL; }
  int rc = gsparse(scanner, ps);
  gs_delete_buffer(buf, scanner);
  gslex_destroy(scanner);
  ps->fatal = NULL;
  /* 2: the parser ran out of stack (deep nesting, already reported as an
  ** error) or of memory. */
  if (rc == 2 && ps->diag->errors == 0) ps->oom = 1;
  return ps->root;
}
