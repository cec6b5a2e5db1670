/*
** parser.y -- the grammar of the .game language.
**
** A pure parser with locations (byte offsets); every action is a one-line
** call that builds a node.  Syntax errors say what was expected, and the
** parser recovers at ';' and '}' so one run reports several mistakes.
*/
%require "3.8"
%define api.pure full
%define api.prefix {gs}
%define parse.error custom
%define parse.lac full
%locations
%param {void *scanner} {ParseState *ps}
%expect 0

%code requires {
#include "lang/ast.h"
typedef struct GSLTYPE { int start, end; } GSLTYPE;
#define GSLTYPE_IS_DECLARED 1
#define YYLLOC_DEFAULT(Cur, Rhs, N)                               \
  do {                                                            \
    if (N) { (Cur).start = YYRHSLOC(Rhs, 1).start;                \
             (Cur).end = YYRHSLOC(Rhs, N).end; }                  \
    else { (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end; }      \
  } while (0)
}

%union {
  int64_t ival;
  const char *str;
  Node *node;
}

%code {
#include <string.h>
int gslex(GSSTYPE *lval, GSLTYPE *lloc, void *scanner, ParseState *ps);
static void gserror(GSLTYPE *loc, void *scanner, ParseState *ps, const char *msg);

#define YYMAXDEPTH 2000   /* bounds the tree's depth for the later passes */

static Span sp(GSLTYPE l) { Span s = { l.start, l.end }; return s; }
/* Node builders: every rule action is one call. */
static Node *mk(ParseState *ps, NodeKind k, GSLTYPE l) { return ast_node(ps, k, sp(l)); }
static Node *mk_name(ParseState *ps, NodeKind k, GSLTYPE l, const char *name) {
  Node *n = mk(ps, k, l); if (n) n->name = name; return n;
}
static Node *mk2(ParseState *ps, NodeKind k, GSLTYPE l, Node *a, Node *b) {
  Node *n = mk(ps, k, l); if (n) { n->a = a; n->b = b; } return n;
}
static Node *mk_op(ParseState *ps, NodeKind k, GSLTYPE l, int op, Node *a, Node *b) {
  Node *n = mk2(ps, k, l, a, b); if (n) n->op = op; return n;
}
static Node *mk_int(ParseState *ps, NodeKind k, GSLTYPE l, int64_t v) {
  Node *n = mk(ps, k, l); if (n) n->ival = v; return n;
}
/* NAME with children a, b, c, d. */
static Node *mk_decl(ParseState *ps, NodeKind k, GSLTYPE l, const char *name,
                     Node *a, Node *b, Node *c, Node *d) {
  Node *n = mk_name(ps, k, l, name);
  if (n) { n->a = a; n->b = b; n->c = c; n->d = d; }
  return n;
}
/* The bound of "at most N pieces"; a message when the words are others. */
static Node *at_most(ParseState *ps, GSLTYPE l1, const char *w1, GSLTYPE l2, const char *w2, Node *n) {
  if (strcmp(w1, "at") != 0) { diag_error(ps->diag, sp(l1), "expected 'at most N pieces' after ',', not '%s'", w1); return NULL; }
  if (strcmp(w2, "most") != 0) { diag_error(ps->diag, sp(l2), "expected 'most' after 'at', not '%s'", w2); return NULL; }
  return n;
}

/* `invalid "REASON";`: the word is not a keyword (nor is `valid`, which
** the lexer makes a token only where a declaration starts); a message
** when the word is another. */
static Node *word_node(ParseState *ps, GSLTYPE l, const char *w, const char *want, const char *where,
                       Node *n) {
  if (strcmp(w, want) != 0) { diag_error(ps->diag, sp(l), "expected '%s' %s, not '%s'", want, where, w); return NULL; }
  return n;
}

/* The players after "seen by"; a message when the words are others. */
static Node *seen_by(ParseState *ps, GSLTYPE l1, const char *w1, GSLTYPE l2, const char *w2,
                     Node *players) {
  if (strcmp(w1, "seen") != 0) { diag_error(ps->diag, sp(l1), "expected 'seen by', 'when' or ';' after the hidden name, not '%s'", w1); return NULL; }
  if (strcmp(w2, "by") != 0) { diag_error(ps->diag, sp(l2), "expected 'by' after 'seen', not '%s'", w2); return NULL; }
  return players;
}

/* The players after a simultaneous move's "by" (not a keyword). */
static Node *by_players(ParseState *ps, GSLTYPE l, const char *w, Node *players) {
  if (strcmp(w, "by") != 0) { diag_error(ps->diag, sp(l), "expected 'by' and the players who choose at once, not '%s'", w); return NULL; }
  return players;
}
}

%token <str> IDENT "identifier" STRING "string"
%token <ival> INTLIT "integer" BOOLLIT "true or false" BADCHAR "stray character"
%token GAME "game" PLAYERS "players" PARAM "param" CONST "const" TYPE "type"
%token BOARD "board" STATE "state" MOVE "move" FUNCTION "function" END "end"
%token START "start" NATIVE "native" NOMOVES "nomoves" EVAL "eval" BOUND "bound" SYMMETRY "symmetry" VAR "var" IF "if"
%token ELSE "else" FOR "for" IN "in" WHILE "while" RETURN "return"
%token BREAK "break" CONTINUE "continue" WIN "win" LOSE "lose" DRAW "draw"
%token SCORE "score" NEXT "next" AS "as" WHEN "when" CHANCE "chance" PAY "pay" WEIGHT "weight" REPETITION "repetition" ILLEGAL "illegal" HIDDEN "hidden" PIECES "pieces" VALID "valid" COMPONENTS "components"
%token PRIORITY "priority" SIMULTANEOUS "simultaneous"
%token TINT "int" TBOOL "bool" TPLAYER "player" TCELL "cell" TDIR "dir"
%token DOTDOT ".." EQ "==" NE "!=" LE "<=" GE ">=" AND "&&" OR "||"
%token ADDEQ "+=" SUBEQ "-=" MULEQ "*="

%type <node> decls decl name_list opt_type type params opt_params param
%type <node> cells opt_seen sym_images sym_cycles piece_clauses
%type <node> dims dim opt_init opt_as opt_weight opt_style opt_when rep_clauses block stmts stmt opt_else
%type <node> if_stmt expr postfix primary expr_list opt_expr_list iterable

%right '?' ':'
%left OR
%left AND
%left EQ NE
%left '<' '>' LE GE
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%%

file
  : decls                       { ps->root = $1; }
  ;

decls
  : %empty                      { $$ = NULL; }
  | decls decl                  { $$ = ast_append($1, $2); }
  ;

decl
  : GAME STRING ';'             { $$ = mk_name(ps, NODE_GAME, @2, $2); }
  | PLAYERS name_list ';'       { $$ = mk2(ps, NODE_PLAYERS, @$, $2, NULL); }
  | PARAM IDENT opt_type '=' expr ';'
                                { $$ = mk_decl(ps, NODE_PARAM, @2, $2, $3, $5, NULL, NULL); }
  | CONST IDENT '=' expr ';'    { $$ = mk_decl(ps, NODE_CONST, @2, $2, NULL, $4, NULL, NULL); }
  | TYPE IDENT '=' type ';'     { $$ = mk_decl(ps, NODE_TYPEDEF, @2, $2, $4, NULL, NULL, NULL); }
  | BOARD IDENT '(' opt_expr_list ')' opt_style opt_when ';'
                                { $$ = mk_decl(ps, NODE_BOARD, @2, $2, $4, $7, $6, NULL); }
  | STATE IDENT dims ':' type opt_init ';'
                                { $$ = mk_decl(ps, NODE_STATE, @2, $2, $5, $6, $3, NULL); }
  | STATE IDENT dims ':' type opt_init ',' IDENT IDENT expr PIECES ';'
                                { $$ = mk_decl(ps, NODE_STATE, @2, $2, $5, $6, $3,
                                               at_most(ps, @8, $8, @9, $9, $10)); }
  | MOVE IDENT '(' opt_params ')' opt_as opt_when block
                                { $$ = mk_decl(ps, NODE_MOVE, @2, $2, $4, $7, $8, $6); }
  | CHANCE MOVE IDENT '(' opt_params ')' opt_as opt_weight opt_when block
                                { $$ = mk_decl(ps, NODE_MOVE, @3, $3, $5, $9, $10, $7);
                                  if ($$) { $$->op = 1; $$->e = $8; } }
  | SIMULTANEOUS MOVE IDENT '(' opt_params ')' opt_as IDENT expr_list opt_when block
                                { $$ = mk_decl(ps, NODE_MOVE, @3, $3, $5, $10, $11, $7);
                                  if ($$) { $$->op = 2; $$->e = by_players(ps, @8, $8, $9); } }
  | FUNCTION IDENT '(' opt_params ')' opt_type block
                                { $$ = mk_decl(ps, NODE_FUNC, @2, $2, $4, $6, $7, NULL); }
  | END block                   { $$ = mk_decl(ps, NODE_END, @1, "end", NULL, NULL, $2, NULL); }
  | NATIVE STRING opt_when ';'  { $$ = mk_decl(ps, NODE_NATIVE, @2, $2, $3, NULL, NULL, NULL); }
  | START block                 { $$ = mk_decl(ps, NODE_START, @1, "start", NULL, NULL, $2, NULL); }
  | NOMOVES block               { $$ = mk_decl(ps, NODE_NOMOVES, @1, "nomoves", NULL, NULL, $2, NULL); }
  | NOMOVES IDENT ';'           { $$ = mk_decl(ps, NODE_NOMOVES, @1, "nomoves",
                                               mk_name(ps, NODE_NAME, @2, $2), NULL, NULL, NULL); }
  | NOMOVES IDENT block         { $$ = mk_decl(ps, NODE_NOMOVES, @1, "nomoves",
                                               mk_name(ps, NODE_NAME, @2, $2), NULL, $3, NULL); }
  | EVAL block                  { $$ = mk_decl(ps, NODE_EVAL, @1, "eval", NULL, NULL, $2, NULL); }
  | BOUND '(' params ')' block  { $$ = mk_decl(ps, NODE_BOUND, @1, "bound", $3, NULL, $5, NULL); }
  | REPETITION IDENT rep_clauses opt_when ';'
                                { $$ = mk_decl(ps, NODE_REPETITION, @2, $2, $3, $4, NULL, NULL); }
  | REPETITION DRAW rep_clauses opt_when ';'
                                { $$ = mk_decl(ps, NODE_REPETITION, @2, "draw", $3, $4, NULL, NULL); }
  | SCORE IDENT ';'             { $$ = mk_name(ps, NODE_SCORE_ONLY, @2, $2); }
  | HIDDEN IDENT cells opt_seen opt_when ';'
                                { $$ = mk_decl(ps, NODE_HIDDEN, @2, $2, $3, $4, $5, NULL); }
  | SYMMETRY IDENT opt_when ';' { $$ = mk_decl(ps, NODE_SYMMETRY, @2, $2, NULL, $3, NULL, NULL); }
  | SYMMETRY IDENT IDENT opt_when ';'
                                { $$ = mk_decl(ps, NODE_SYMMETRY, @2, $2,
                                               mk_name(ps, NODE_NAME, @3, $3), $4, NULL, NULL); }
  | PIECES IDENT STRING piece_clauses ';'
                                { $$ = mk_decl(ps, NODE_PIECES, @2, $2,
                                               mk_name(ps, NODE_NAME, @3, $3), $4, NULL, NULL); }
  | SYMMETRY IDENT sym_images opt_when ';'
                                { $$ = mk_decl(ps, NODE_SYMMETRY, @2, $2, $3, $4, NULL, NULL); }
  | SYMMETRY IDENT sym_cycles opt_when ';'
                                { $$ = mk_decl(ps, NODE_SYMMETRY, @2, $2, $3, $4, NULL, NULL); }
  | VALID block                 { $$ = mk_decl(ps, NODE_VALID, @1, "valid", NULL, NULL, $2, NULL); }
  | COMPONENTS IDENT ';'        { $$ = mk_name(ps, NODE_COMPONENTS, @2, $2); }
  | error ';'                   { $$ = NULL; }
  | error block                 { $$ = NULL; }
  ;

/* After the letters of `pieces`: WORD NAME or WORD NAME "LETTERS" (check F,
** castling V "KQkq", en_passant V, halfmove V, fullmove V), each a
** NODE_NAME named by the word, its operand in a, the letters in b. */
piece_clauses
  : %empty                      { $$ = NULL; }
  | piece_clauses IDENT IDENT   { $$ = ast_append($1, mk_decl(ps, NODE_NAME, @2, $2,
                                                              mk_name(ps, NODE_NAME, @3, $3), NULL, NULL, NULL)); }
  | piece_clauses IDENT IDENT STRING
                                { $$ = ast_append($1, mk_decl(ps, NODE_NAME, @2, $2,
                                                              mk_name(ps, NODE_NAME, @3, $3),
                                                              mk_name(ps, NODE_NAME, @4, $4), NULL, NULL)); }
  ;

/* symmetry NAME [p0, p1, ...]: a permutation as the list of images. */
sym_images
  : '[' opt_expr_list ']'       { $$ = mk2(ps, NODE_LIST, @$, $2, NULL); }
  ;

/* symmetry NAME (a, b, c)(d, e): a permutation as cycles (op 'c'). */
sym_cycles
  : '(' expr_list ')'           { $$ = mk2(ps, NODE_LIST, @$, $2, NULL); if ($$) $$->op = 'c'; }
  | sym_cycles '(' expr_list ')'
                                { Node *c = mk2(ps, NODE_LIST, @2, $3, NULL);
                                  if (c) c->op = 'c';
                                  $$ = ast_append($1, c); }
  ;

name_list
  : IDENT                       { $$ = mk_name(ps, NODE_NAME, @1, $1); }
  | name_list ',' IDENT         { $$ = ast_append($1, mk_name(ps, NODE_NAME, @3, $3)); }
  ;

opt_type
  : %empty                      { $$ = NULL; }
  | ':' type                    { $$ = $2; }
  ;

type
  : expr DOTDOT expr            { $$ = mk2(ps, NODE_TRANGE, @$, $1, $3); }
  | TINT                        { $$ = mk(ps, NODE_TINT, @1); }
  | TBOOL                       { $$ = mk(ps, NODE_TBOOL, @1); }
  | TPLAYER                     { $$ = mk(ps, NODE_TPLAYER, @1); }
  | TCELL                       { $$ = mk(ps, NODE_TCELL, @1); }
  | TDIR                        { $$ = mk(ps, NODE_TDIR, @1); }
  | '{' name_list '}'           { $$ = mk2(ps, NODE_TENUM, @$, $2, NULL); }
  | IDENT                       { $$ = mk_name(ps, NODE_TNAME, @1, $1); }
  ;

opt_params
  : %empty                      { $$ = NULL; }
  | params                      { $$ = $1; }
  ;

params
  : param                       { $$ = $1; }
  | params ',' param            { $$ = ast_append($1, $3); }
  ;

param
  : IDENT ':' type              { $$ = mk_decl(ps, NODE_PARAMDECL, @1, $1, $3, NULL, NULL, NULL); }
  | IDENT ':' IN expr           { $$ = mk_decl(ps, NODE_PARAMDECL, @1, $1,
                                               mk2(ps, NODE_TSET, @4, $4, NULL), NULL, NULL, NULL); }
  ;

dims
  : %empty                      { $$ = NULL; }
  | dims dim                    { $$ = ast_append($1, $2); }
  ;

dim
  : '[' expr ']'                { $$ = $2; }
  | '[' BOARD ']'               { $$ = mk(ps, NODE_TCELL, @2); }
  ;

opt_init
  : %empty                      { $$ = NULL; }
  | '=' expr                    { $$ = $2; }
  ;

opt_as
  : %empty                      { $$ = NULL; }
  | AS STRING                   { $$ = mk_name(ps, NODE_NAME, @2, $2); }
  | AS STRING ',' STRING        { $$ = mk_decl(ps, NODE_NAME, @2, $2, mk_name(ps, NODE_NAME, @4, $4),
                                               NULL, NULL, NULL); }
  ;

/* "of NAME, ..." and "except NAME, ...": a NODE_NAME per clause word,
** its names in a. */
rep_clauses
  : %empty                      { $$ = NULL; }
  | rep_clauses IDENT name_list { $$ = ast_append($1, mk_decl(ps, NODE_NAME, @2, $2, $3, NULL, NULL, NULL)); }
  ;

/* hidden NAME[i][j]: the names of the cell indices. */
cells
  : %empty                      { $$ = NULL; }
  | cells '[' name_list ']'     { $$ = ast_append($1, $3); }
  ;

/* "seen by P, ...": the words are not keywords ('seen' is a common name). */
opt_seen
  : %empty                      { $$ = NULL; }
  | IDENT IDENT expr_list       { $$ = seen_by(ps, @1, $1, @2, $2, $3); }
  ;

opt_style
  : %empty                      { $$ = NULL; }
  | IDENT                       { $$ = mk_name(ps, NODE_NAME, @1, $1); }
  ;

opt_weight
  : %empty                      { $$ = NULL; }
  | WEIGHT expr                 { $$ = $2; }
  ;

opt_when
  : %empty                      { $$ = NULL; }
  | WHEN expr                   { $$ = $2; }
  ;

block
  : '{' stmts '}'               { $$ = mk2(ps, NODE_BLOCK, @$, $2, NULL); }
  | '{' stmts error '}'         { $$ = mk2(ps, NODE_BLOCK, @$, $2, NULL); }
  ;

stmts
  : %empty                      { $$ = NULL; }
  | stmts stmt                  { $$ = ast_append($1, $2); }
  ;

stmt
  : VAR IDENT dims opt_type opt_init ';'
                                { $$ = mk_decl(ps, NODE_VAR, @2, $2, $4, $5, $3, NULL); }
  | postfix '=' expr ';'        { $$ = mk_op(ps, NODE_ASSIGN, @2, '=', $1, $3); }
  | postfix ADDEQ expr ';'      { $$ = mk_op(ps, NODE_ASSIGN, @2, '+', $1, $3); }
  | postfix SUBEQ expr ';'      { $$ = mk_op(ps, NODE_ASSIGN, @2, '-', $1, $3); }
  | postfix MULEQ expr ';'      { $$ = mk_op(ps, NODE_ASSIGN, @2, '*', $1, $3); }
  | postfix ';'                 { $$ = mk2(ps, NODE_EXPRSTMT, @1, $1, NULL); }
  | if_stmt                     { $$ = $1; }
  | FOR IDENT IN iterable block { $$ = mk_decl(ps, NODE_FOR, @2, $2, $4, NULL, $5, NULL); }
  | WHILE expr block            { $$ = mk_decl(ps, NODE_WHILE, @1, NULL, $2, NULL, $3, NULL); }
  | RETURN ';'                  { $$ = mk(ps, NODE_RETURN, @1); }
  | RETURN expr ';'             { $$ = mk2(ps, NODE_RETURN, @1, $2, NULL); }
  | BREAK ';'                   { $$ = mk(ps, NODE_BREAK, @1); }
  | CONTINUE ';'                { $$ = mk(ps, NODE_CONTINUE, @1); }
  | CONTINUE MOVE ';'           { $$ = mk(ps, NODE_CONTMOVE, @1); }
  | PRIORITY expr ';'           { $$ = mk2(ps, NODE_PRIORITY, @1, $2, NULL); }
  | WIN expr ';'                { $$ = mk2(ps, NODE_WIN, @1, $2, NULL); }
  | LOSE expr ';'               { $$ = mk2(ps, NODE_LOSE, @1, $2, NULL); }
  | DRAW ';'                    { $$ = mk(ps, NODE_DRAW, @1); }
  | SCORE expr_list ';'         { $$ = mk2(ps, NODE_SCORE, @1, $2, NULL); }
  | NEXT expr ';'               { $$ = mk2(ps, NODE_NEXT, @1, $2, NULL); }
  | NEXT expr ',' expr ';'      { $$ = mk2(ps, NODE_NEXT, @1, $2, $4); }
  | ILLEGAL ';'                 { $$ = mk(ps, NODE_ILLEGAL, @1); }
  | IDENT STRING ';'            { $$ = word_node(ps, @1, $1, "invalid", "before a string (a reason)",
                                                 mk_name(ps, NODE_INVALID, @$, $2)); }
  | PAY expr ',' expr ';'       { $$ = mk2(ps, NODE_PAY, @1, $2, $4); }
  | block                       { $$ = $1; }
  | error ';'                   { $$ = NULL; }
  | error block                 { $$ = NULL; }
  ;

if_stmt
  : IF expr block opt_else      { $$ = mk_decl(ps, NODE_IF, @1, NULL, $2, $3, $4, NULL); }
  ;

opt_else
  : %empty                      { $$ = NULL; }
  | ELSE block                  { $$ = $2; }
  | ELSE if_stmt                { $$ = $2; }
  ;

iterable
  : expr                        { $$ = $1; }
  | expr DOTDOT expr            { $$ = mk2(ps, NODE_RANGE, @$, $1, $3); }
  | PLAYERS                     { $$ = mk_name(ps, NODE_NAME, @1, "players"); }
  ;

expr
  : postfix                     { $$ = $1; }
  | '-' expr %prec UNARY        { $$ = mk_op(ps, NODE_UNARY, @$, '-', $2, NULL); }
  | '!' expr %prec UNARY        { $$ = mk_op(ps, NODE_UNARY, @$, '!', $2, NULL); }
  | expr '+' expr               { $$ = mk_op(ps, NODE_BINARY, @$, '+', $1, $3); }
  | expr '-' expr               { $$ = mk_op(ps, NODE_BINARY, @$, '-', $1, $3); }
  | expr '*' expr               { $$ = mk_op(ps, NODE_BINARY, @$, '*', $1, $3); }
  | expr '/' expr               { $$ = mk_op(ps, NODE_BINARY, @$, '/', $1, $3); }
  | expr '%' expr               { $$ = mk_op(ps, NODE_BINARY, @$, '%', $1, $3); }
  | expr '<' expr               { $$ = mk_op(ps, NODE_BINARY, @$, '<', $1, $3); }
  | expr '>' expr               { $$ = mk_op(ps, NODE_BINARY, @$, '>', $1, $3); }
  | expr LE expr                { $$ = mk_op(ps, NODE_BINARY, @$, OPR_LE, $1, $3); }
  | expr GE expr                { $$ = mk_op(ps, NODE_BINARY, @$, OPR_GE, $1, $3); }
  | expr EQ expr                { $$ = mk_op(ps, NODE_BINARY, @$, OPR_EQ, $1, $3); }
  | expr NE expr                { $$ = mk_op(ps, NODE_BINARY, @$, OPR_NE, $1, $3); }
  | expr AND expr               { $$ = mk_op(ps, NODE_BINARY, @$, OPR_AND, $1, $3); }
  | expr OR expr                { $$ = mk_op(ps, NODE_BINARY, @$, OPR_OR, $1, $3); }
  | expr '?' expr ':' expr      { $$ = mk_decl(ps, NODE_COND, @$, NULL, $1, $3, $5, NULL); }
  ;

postfix
  : primary                     { $$ = $1; }
  | postfix '[' expr_list ']'   { $$ = mk2(ps, NODE_INDEX, @$, $1, $3); }
  ;

primary
  : INTLIT                      { $$ = mk_int(ps, NODE_INT, @1, $1); }
  | BOOLLIT                     { $$ = mk_int(ps, NODE_BOOL, @1, $1); }
  | IDENT                       { $$ = mk_name(ps, NODE_NAME, @1, $1); }
  | CHANCE                      { $$ = mk_name(ps, NODE_NAME, @1, "chance"); }
  | IDENT '(' opt_expr_list ')' { $$ = mk_decl(ps, NODE_CALL, @$, $1, $3, NULL, NULL, NULL); }
  | TPLAYER '(' opt_expr_list ')' { $$ = mk_decl(ps, NODE_CALL, @$, "player", $3, NULL, NULL, NULL); }
  | '(' expr ')'                { $$ = $2; }
  | '[' opt_expr_list ']'       { $$ = mk2(ps, NODE_LIST, @$, $2, NULL); }
  ;

opt_expr_list
  : %empty                      { $$ = NULL; }
  | expr_list                   { $$ = $1; }
  ;

expr_list
  : expr                        { $$ = $1; }
  | expr_list ',' expr          { $$ = ast_append($1, $3); }
  ;

%%

/* Token names as users should read them: 'game', ';', identifier. */
static void print_symbol(FILE *out, yysymbol_kind_t s) {
  const char *name = yysymbol_name(s);
  size_t n = strlen(name);
  if (name[0] == '"' && n >= 2) fprintf(out, "'%.*s'", (int)(n - 2), name + 1);
  else fputs(name, out);
}

/* "unexpected 'foo' (identifier); expected ';' or ','" */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, ParseState *ps) {
  (void)scanner;
  Diag *d = ps->diag;
  enum { MAX_EXPECTED = 6 };
  yysymbol_kind_t expected[MAX_EXPECTED];
  int n = yypcontext_expected_tokens(ctx, expected, MAX_EXPECTED);
  yysymbol_kind_t tok = yypcontext_token(ctx);
  const GSLTYPE *loc = yypcontext_location(ctx);
  Span at = { loc->start, loc->end };
  char msg[512];
  FILE *m = fmemopen(msg, sizeof msg, "w");
  if (!m) { diag_error(d, at, "syntax error"); return 0; }
  if (tok == YYSYMBOL_YYEOF) fputs("unexpected end of file", m);
  else if (tok == YYSYMBOL_BADCHAR) {
    unsigned char c = (unsigned char)d->text[loc->start];
    if (c >= 32 && c < 127) fprintf(m, "stray '%c' in the program", c);
    else fprintf(m, "stray byte 0x%02x in the program", c);
  } else {
    int len = loc->end - loc->start;
    fprintf(m, "unexpected '%.*s'", len > 24 ? 24 : len, d->text + loc->start);
    if (tok == YYSYMBOL_IDENT || tok == YYSYMBOL_INTLIT || tok == YYSYMBOL_STRING) {
      fputs(" (", m); print_symbol(m, tok); fputs(")", m);
    }
  }
  if (n > 0 && n < MAX_EXPECTED) {
    fputs("; expected ", m);
    for (int i = 0; i < n; i++) {
      if (i > 0) fputs(i == n - 1 ? " or " : ", ", m);
      print_symbol(m, expected[i]);
    }
  }
  fputc(0, m);
  fclose(m);
  msg[sizeof msg - 1] = 0;
  diag_error(d, at, "%s", msg);
  return 0;
}

static void gserror(GSLTYPE *loc, void *scanner, ParseState *ps, const char *msg) {
  (void)scanner;
  Span at = { loc->start, loc->end };
  if (strstr(msg, "exhausted"))
    diag_error(ps->diag, at, "nesting too deep (limit is %d levels)", YYMAXDEPTH);
  else
    diag_error(ps->diag, at, "%s", msg);
}
