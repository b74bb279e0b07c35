// SPDX-License-Identifier: GPL-2.0
/*
 * Shell-style wildcard match: '*', '?' and [...] classes (with ranges and
 * '!' or '^' negation).  Iterative, with one backtrack point for the last
 * '*', so it runs in O(len(pat) * len(str)) without recursion.
 */
#include <linux/kernel.h>
#include <linux/ktest.h>

static bool match_class(const char **pp, char c)
{
	const char *p = *pp + 1;
	bool neg = false, hit = false;

	if (*p == '!' || *p == '^') {
		neg = true;
		p++;
	}
	/* A ']' right after the '[' is a literal member. */
	do {
		char lo = *p, hi = lo;

		if (!lo)
			return false;	/* unterminated class never matches */
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = p[2];
			p += 2;
		}
		if (c >= lo && c <= hi)
			hit = true;
		p++;
	} while (*p != ']');
	*pp = p + 1;
	return hit != neg;
}

bool glob_match(const char *pat, const char *str)
{
	const char *back_pat = NULL, *back_str = NULL;

	for (;;) {
		char c = *str;

		if (*pat == '*') {
			back_pat = ++pat;
			back_str = str;
			continue;
		}
		if (c) {
			const char *p = pat;

			if (*p == '?' ? (p++, true) :
			    *p == '[' ? match_class(&p, c) :
			    *p == c ? (p++, true) : false) {
				pat = p;
				str++;
				continue;
			}
		} else if (!*pat) {
			return true;
		}
		/* Mismatch: let the last '*' swallow one more character. */
		if (!back_pat || !*back_str)
			return false;
		pat = back_pat;
		str = ++back_str;
	}
}
