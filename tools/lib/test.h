/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test.h - the unit-case runner of the tools' test binaries
 *
 * A test binary is a table of cases and a main() that hands it to t_main():
 *
 *	static void foo_test_adds(struct t_test *t)
 *	{
 *		EXPECT(t, foo_add(1, 2) == 3);
 *	}
 *
 *	static const struct t_case foo_cases[] = {
 *		T_CASE(foo_test_adds),
 *	};
 *
 *	int main(int argc, char **argv)
 *	{
 *		return t_main(argc, argv, foo_cases, T_ARRAY_SIZE(foo_cases), "");
 *	}
 *
 * That gives the command line of every test binary of the tools:
 *
 *	PROG		run every case, each in a process of its own, and
 *			report in TAP (version 13): "1..N", then "ok I NAME"
 *			or "not ok I NAME" with the reason (a failed
 *			expectation, an exit status, a signal: a crash or a
 *			sanitizer report fails only its own case); exit 1 if
 *			any case failed
 *	PROG --list	the case names, one a line
 *	PROG NAME	run one case in this process (for a debugger): exit
 *			0 if it passed, 1 if it failed, 2 if there is no such
 *			case
 *
 * An expectation that does not hold prints where and what, and the case
 * goes on: it fails when it returns.  Name cases <suite>_test_<behaviour>.
 */
#ifndef TOOLS_LIB_TEST_H
#define TOOLS_LIB_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define T_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/**
 * struct t_test - the running case
 * @name:   its name
 * @failed: expectations that did not hold
 */
struct t_test {
	const char *name;
	int failed;
};

/**
 * struct t_case - one entry of a binary's table of cases
 * @name: the name --list prints and NAME selects (the function's, by T_CASE)
 * @fn:   the case
 */
struct t_case {
	const char *name;
	void (*fn)(struct t_test *t);
};

#define T_CASE(fn)	{ #fn, fn }

/* Both evaluate to whether the expectation held. */
#define EXPECT(t, cond) \
	t_expect(t, (cond), #cond, __FILE__, __LINE__)
#define EXPECT_STR(t, got, want) \
	t_expect_str(t, (got), (want), __FILE__, __LINE__)

static inline bool t_expect(struct t_test *t, bool ok, const char *what,
			    const char *file, int line)
{
	if (!ok) {
		fprintf(stderr, "%s:%d: %s: expected %s\n", file, line,
			t->name, what);
		t->failed++;
	}
	return ok;
}

static inline bool t_expect_str(struct t_test *t, const char *got,
				const char *want, const char *file, int line)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "%s:%d: %s: got \"%s\", want \"%s\"\n", file,
			line, t->name, got, want);
		t->failed++;
		return false;
	}
	return true;
}

/* Zeroed memory for a case's fixtures; no memory is not a case's failure. */
static inline void *t_zalloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}

/*
 * t_run_tap() - every case in a child process of its own, reported in TAP.
 * A case's messages go to stderr, so that stdout is TAP alone.
 */
static inline int t_run_tap(const struct t_case *cases, size_t nr_cases)
{
	int failed = 0, status;
	size_t i;
	pid_t pid;

	printf("TAP version 13\n1..%zu\n", nr_cases);
	for (i = 0; i < nr_cases; i++) {
		fflush(stdout);
		fflush(stderr);
		pid = fork();
		if (pid < 0) {
			perror("fork");
			exit(2);
		}
		if (pid == 0) {
			struct t_test t = { .name = cases[i].name };

			cases[i].fn(&t);
			fflush(stdout);
			_exit(t.failed ? 1 : 0);
		}
		if (waitpid(pid, &status, 0) < 0) {
			perror("waitpid");
			exit(2);
		}
		if (WIFEXITED(status) && !WEXITSTATUS(status)) {
			printf("ok %zu %s\n", i + 1, cases[i].name);
			continue;
		}
		failed++;
		printf("not ok %zu %s\n", i + 1, cases[i].name);
		if (WIFSIGNALED(status))
			printf("# killed by signal %d\n", WTERMSIG(status));
		else if (WEXITSTATUS(status) != 1)
			printf("# exit status %d\n", WEXITSTATUS(status));
	}
	printf("# %zu passed, %d failed, 0 skipped\n", nr_cases - failed,
	       failed);
	return failed ? 1 : 0;
}

/**
 * t_main() - the command line of a test binary
 * @argc:       main()'s
 * @argv:       main()'s
 * @cases:      the binary's cases
 * @nr_cases:   how many
 * @more_usage: what the binary's own main() takes besides, for the usage
 *              line (" | --dump KIND N"), or ""
 *
 * Return: main()'s exit status: 0 when every case run passed (or for
 * --list), 1 when one failed, 2 for a usage error or an unknown case.
 */
static inline int t_main(int argc, char **argv, const struct t_case *cases,
			 size_t nr_cases, const char *more_usage)
{
	const char *prog = argc > 0 ? argv[0] : "test";
	struct t_test t = { 0 };
	size_t i;

	if (strrchr(prog, '/'))
		prog = strrchr(prog, '/') + 1;
	if (argc <= 1)
		return t_run_tap(cases, nr_cases);
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < nr_cases; i++)
			printf("%s\n", cases[i].name);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s [--list | NAME%s]\n", prog,
			more_usage);
		return 2;
	}
	for (i = 0; i < nr_cases; i++) {
		if (strcmp(argv[1], cases[i].name))
			continue;
		t.name = cases[i].name;
		cases[i].fn(&t);
		return t.failed ? 1 : 0;
	}
	fprintf(stderr, "%s: no case %s\n", prog, argv[1]);
	return 2;
}

#endif /* TOOLS_LIB_TEST_H */
