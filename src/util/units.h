/*
** units.h -- durations, rates and counts in units that fit their size,
** for people to read ("9.36 s", "812 us", "4.56M").  JSON keeps plain
** numbers; these are for text reports and progress lines only.
*/
#ifndef GSOLVE_UNITS_H
#define GSOLVE_UNITS_H

#include <stddef.h>

/* A duration in seconds as "12.3 us", "4.5 ms", "812 ms", "9.36 s",
** "93.6 s", "2 min 05 s" or "1 h 02 min"; buf is returned. */
const char *units_seconds(double seconds, char *buf, size_t size);

/* A count in a few characters: "950", "12.3k", "4.56M", "7.89G". */
const char *units_count(double n, char *buf, size_t size);

/* A size in bytes as "512 B", "64.0 KiB", "1.50 GiB". */
const char *units_bytes(double bytes, char *buf, size_t size);

#endif
