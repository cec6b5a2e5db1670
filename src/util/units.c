/*
** units.c -- numbers for people: the unit is chosen so that three or
** four significant digits show (units.h).
*/
#include <stdio.h>
#include "util/units.h"

const char *units_seconds(double s, char *buf, size_t size) {
  if (s < 0) s = 0;
  if (s < 1e-3) snprintf(buf, size, "%.1f us", s * 1e6);
  else if (s < 0.1) snprintf(buf, size, "%.1f ms", s * 1e3);
  else if (s < 1) snprintf(buf, size, "%.0f ms", s * 1e3);
  else if (s < 10) snprintf(buf, size, "%.2f s", s);
  else if (s < 120) snprintf(buf, size, "%.1f s", s);
  else if (s < 7200) {
    long t = (long)(s + 0.5);
    snprintf(buf, size, "%ld min %02ld s", t / 60, t % 60);
  } else {
    long t = (long)(s / 60 + 0.5);
    snprintf(buf, size, "%ld h %02ld min", t / 60, t % 60);
  }
  return buf;
}

const char *units_count(double n, char *buf, size_t size) {
  if (n < 1e4) snprintf(buf, size, "%.0f", n);
  else if (n < 1e6) snprintf(buf, size, "%.1fk", n / 1e3);
  else if (n < 1e9) snprintf(buf, size, "%.2fM", n / 1e6);
  else snprintf(buf, size, "%.2fG", n / 1e9);
  return buf;
}

const char *units_bytes(double b, char *buf, size_t size) {
  if (b < 1024) snprintf(buf, size, "%.0f B", b);
  else if (b < 1024.0 * 1024) snprintf(buf, size, "%.1f KiB", b / 1024);
  else if (b < 1024.0 * 1024 * 1024) snprintf(buf, size, "%.1f MiB", b / (1024.0 * 1024));
  else snprintf(buf, size, "%.2f GiB", b / (1024.0 * 1024 * 1024));
  return buf;
}
