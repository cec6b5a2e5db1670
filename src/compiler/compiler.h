/*
** compiler.h -- the compiler's public API: compile a .game source into a
** Program, and read what a Program declares (parameters, players, the
** native engine it names).  The Program's layout is in program.h.
*/
#ifndef GSOLVE_COMPILER_H
#define GSOLVE_COMPILER_H

#include <stdint.h>
#include <stdio.h>
#include "game/fen.h"
#include "util/status.h"

typedef struct Program Program;


/* A -D name=value override from the command line. */
typedef struct ParamDef {
  const char *name;
  const char *value;       /* text as given: "5", "2,3,4", "situational" */
} ParamDef;

/* Compiles a .game source.  Diagnostics go to `err` in the form
** file:line:col: error: message, the line, and a caret.  Returns NULL
** when there were errors; *status is then EXIT_BAD_GAME (errors in the
** file) or EXIT_USAGE (a bad -D override). */
Program *gs_compile(const char *filename, const char *text, size_t len,
                    const ParamDef *defs, int ndefs, FILE *err, int *status);
void gs_program_free(Program *p);

/* --dump-bytecode listing. */
void gs_disassemble(const Program *p, FILE *out);
/* The same as one JSON object on one line (--dump-bytecode --json). */
void gs_disassemble_json(const Program *p, FILE *out);
/* --dump-ast listing. */
void gs_dump_ast(const Program *p, FILE *out);

/* The parameters after overrides, as a JSON object ({"width":7,...}) or
** as text ("width=7 height=6"). */
void gs_write_params_json(const Program *p, FILE *out);
void gs_write_params_text(const Program *p, FILE *out);

/* A hash of the compiled rules (parameters included): a database built
** for other rules is refused. */
uint64_t gs_rules_hash(const Program *p);

/* Parameters by name, for native engines: 1 and the value if the game
** has an int or bool (or enumeration: the member's index) parameter NAME;
** gs_param_list gives a list parameter's values. */
/* The `pieces` declaration into b: the letters (value k + 1 is
** letters[k]), the first slot of the board array, the board's size and
** the state FEN's later fields go to; the letters, or NULL if none. */
const char *gs_pieces(const Program *p, FenBoard *b);

int gs_param_int(const Program *p, const char *name, int32_t *value);
int gs_param_list(const Program *p, const char *name, const int32_t **values, int *n);
/* The game's name and its players (0-based). */
const char *gs_game_name(const Program *p);
int gs_player_count(const Program *p);
const char *gs_player_name(const Program *p, int i);

/* The native engine the game declares (`native "name" when ...;`) and
** whether its condition holds for these parameters; NULL if none. */
const char *gs_native_name(const Program *p, int *allowed);

/* The number of points of the board the game declares (its cells), 0
** without a board. */
int gs_board_cells(const Program *p);

#endif
