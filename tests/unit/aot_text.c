/*
** aot_text.c -- prints the compiled tier's C text for a game (aot_gen.c),
** and its length on stderr.  tests/t_compiled.sh builds it with clang's
** UndefinedBehaviorSanitizer around src/vm/aot_gen.c: the generator made
** a pointer from its first, NULL, buffer (`NULL + 0`) on every
** `--engine auto` run.
**
**   aot_text GAME [-D name=value ...]
*/
#include <stdio.h>
#include "loadgame.h"
#include "vm/aot_gen.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: aot_text GAME [-D name=value ...]\n", stderr);
    return 2;
  }
  Program *p = load_game(argv[1], argc, argv, 2);
  if (p == NULL) return 3;
  char why[256];
  size_t len = 0;
  int status;
  char *text = aot_generate(p, &len, why, sizeof why, &status);
  if (text == NULL) {
    fprintf(stderr, "aot_text: %s\n", why);
    gs_program_free(p);
    return 1;
  }
  fwrite(text, 1, len, stdout);
  fprintf(stderr, "%zu bytes\n", len);
  free(text);
  gs_program_free(p);
  return 0;
}
