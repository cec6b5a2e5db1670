/*
** json.c -- the JSON writer (see json.h).
*/
#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include "util/json.h"

void json_init(JsonWriter *w, FILE *f) {
  w->f = f;
  w->depth = 0;
  w->count[0] = 0;
  w->after_key = 0;
}

/* The separator before a value or a key at the current level. */
static void separate(JsonWriter *w) {
  if (w->after_key) {
    w->after_key = 0;
    return;
  }
  if (w->count[w->depth]++ > 0) fputc(',', w->f);
}

static void begin_nest(JsonWriter *w, int c) {
  separate(w);
  fputc(c, w->f);
  assert(w->depth + 1 < JSON_MAX_DEPTH);
  w->count[++w->depth] = 0;
}

static void end_nest(JsonWriter *w, int c) {
  assert(w->depth > 0 && !w->after_key);
  w->depth--;
  fputc(c, w->f);
}

void json_begin_object(JsonWriter *w) { begin_nest(w, '{'); }
void json_end_object(JsonWriter *w) { end_nest(w, '}'); }
void json_begin_array(JsonWriter *w) { begin_nest(w, '['); }
void json_end_array(JsonWriter *w) { end_nest(w, ']'); }

void json_key(JsonWriter *w, const char *key) {
  separate(w);
  json_write_escaped(w->f, key);
  fputc(':', w->f);
  w->after_key = 1;
}

void json_string(JsonWriter *w, const char *s) {
  separate(w);
  json_write_escaped(w->f, s);
}

void json_int(JsonWriter *w, int64_t v) {
  separate(w);
  fprintf(w->f, "%" PRId64, v);
}

void json_uint(JsonWriter *w, uint64_t v) {
  separate(w);
  fprintf(w->f, "%" PRIu64, v);
}

/* JSON has no NaN or infinities: those become null. */
static void number(JsonWriter *w, const char *format, double v) {
  separate(w);
  if (isfinite(v))
    fprintf(w->f, format, v);
  else
    fputs("null", w->f);
}

void json_double(JsonWriter *w, double v) { number(w, "%.6f", v); }

void json_real(JsonWriter *w, double v) { number(w, "%.15g", v); }

void json_bool(JsonWriter *w, int v) {
  separate(w);
  fputs(v ? "true" : "false", w->f);
}

void json_null(JsonWriter *w) {
  separate(w);
  fputs("null", w->f);
}

void json_raw(JsonWriter *w) {
  separate(w);
}

void json_write_escaped(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s != '\0'; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\b': fputs("\\b", f); break;
    case '\f': fputs("\\f", f); break;
    case '\n': fputs("\\n", f); break;
    case '\r': fputs("\\r", f); break;
    case '\t': fputs("\\t", f); break;
    default:
      /* Other control characters must be escaped; bytes >= 0x80 pass
      ** through, so UTF-8 input stays UTF-8. */
      if (c < 0x20)
        fprintf(f, "\\u%04x", c);
      else
        fputc(c, f);
    }
  }
  fputc('"', f);
}
