/*
** serve_request.h -- the request parser of `gsolve serve`: a request's
** raw target ("/api/position?game=nim&moves=take+1+1&heaps=1,2") checked
** against the served games into a Request whose every field is one the
** server may put on a child's command line.  Nothing here opens a file
** or starts a process; the fuzz harness fuzz/fuzz_http.c drives it.
*/
#ifndef GSOLVE_SERVE_REQUEST_H
#define GSOLVE_SERVE_REQUEST_H

#include <stddef.h>

#define SERVE_MAX_TARGET  16384   /* bytes of a request's target (path and query) */
#define SERVE_MAX_FIELDS  32      /* fields of one query */
#define SERVE_MAX_MOVES   8192    /* bytes of the decoded moves */
#define SERVE_MAX_VALUE   512     /* bytes of a parameter's decoded value */
#define SERVE_MAX_PARAMS  32      /* parameters of a served game */
#define SERVE_MAX_DEPTH   12      /* ?depth= of the computer's search, the tree */
#define SERVE_MAX_ERROR   320     /* bytes of an error message */

/* What a request asks for. */
typedef enum Endpoint {
  EP_NONE, EP_FILE, EP_GAMES, EP_DESCRIBE, EP_POSITION, EP_COMPUTER, EP_STRATEGY, EP_TREE
} Endpoint;

/* One served game: its name (the file's, without .game), the path of
** its file (the server's own, never one from a request) and the names
** of its parameters. */
typedef struct ServedGame {
  char *name;
  char *path;
  char *title;                    /* the game's declared name */
  int nparams;
  char *params[SERVE_MAX_PARAMS];
} ServedGame;

typedef struct Request {
  Endpoint ep;
  const char *file;               /* EP_FILE: the page's file ("index.html") */
  int game;                       /* index into the served games; -1: none */
  char moves[SERVE_MAX_MOVES];    /* decoded, one space between moves */
  int level;                      /* EP_COMPUTER: 0 perfect, else a depth */
  int depth;                      /* EP_TREE: plies */
  int nparams;
  int param[SERVE_MAX_PARAMS];    /* which of the game's parameters */
  char value[SERVE_MAX_PARAMS][SERVE_MAX_VALUE];
} Request;

/* The page's own files, embedded (build/web_files.c, made from web/). */
typedef struct WebFile {
  const char *name, *type, *text;
} WebFile;
extern const WebFile web_files[];

/* Parses target (NUL-terminated, len bytes) into q.  Returns 200, or a
** 4xx status with a message in err (SERVE_MAX_ERROR bytes). */
int serve_parse(const char *target, size_t len, const ServedGame *games, int ngames,
                Request *q, char *err);

/* The web file named `name`, or NULL. */
const WebFile *serve_web_file(const char *name);

#endif
