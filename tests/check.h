/*
 * check.h - the unit tests' verdicts: CHECK counts a condition as passed
 * or failed and says where it failed, OK a call that must return 0.  A
 * suite closes with printf("%d passed, %d failed\n", passed, failed).
 */
#ifndef AR_TEST_CHECK_H
#define AR_TEST_CHECK_H

#include <stdio.h>

#include "ar.h"

static int passed, failed;

#define CHECK(cond, ...) do { \
	if (cond) \
		passed++; \
	else { \
		failed++; \
		fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

#define OK(call) do { \
	int rc_ = (call); \
	CHECK(rc_ == 0, "%s: %s", #call, ar_strerror(rc_)); \
} while (0)

#endif
