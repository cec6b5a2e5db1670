/*
** json.h -- a tiny streaming JSON writer: it places the commas and
** colons, the caller says what comes next.
*/
#ifndef GSOLVE_JSON_H
#define GSOLVE_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

typedef struct JsonWriter {
  FILE *f;
  int depth;                      /* open objects and arrays */
  int count[JSON_MAX_DEPTH];      /* members written at each level */
  int after_key;                  /* a key was written, its value is next */
} JsonWriter;

void json_init(JsonWriter *w, FILE *f);

void json_begin_object(JsonWriter *w);
void json_end_object(JsonWriter *w);
void json_begin_array(JsonWriter *w);
void json_end_array(JsonWriter *w);
void json_key(JsonWriter *w, const char *key);

void json_string(JsonWriter *w, const char *s);
void json_int(JsonWriter *w, int64_t v);
void json_uint(JsonWriter *w, uint64_t v);
void json_double(JsonWriter *w, double v);   /* fixed, 6 decimals (times) */
void json_real(JsonWriter *w, double v);     /* 15 significant digits */
void json_bool(JsonWriter *w, int v);
void json_null(JsonWriter *w);

/* Makes room for one value that the caller writes to w->f itself (such
** as gs_write_params_json's object). */
void json_raw(JsonWriter *w);

/* Writes s as a JSON string literal, quotes included. */
void json_write_escaped(FILE *f, const char *s);

#endif
