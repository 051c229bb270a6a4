// SPDX-License-Identifier: MIT
/*
 * The subset of IGT's core (subtests, fixtures, assertions, skips,
 * logging, forked children) that the ugpu tests use.
 */
#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <time.h>
#include <sys/wait.h>

#include "igt_core.h"

sigjmp_buf igt_subtest_jmpbuf;
sigjmp_buf igt_dynamic_jmpbuf;
sigjmp_buf igt_fixture_jmpbuf;

enum result {
	RESULT_NONE,
	RESULT_SUCCESS,
	RESULT_SKIP,
	RESULT_FAIL,
};

static const char *const result_names[] = {
	[RESULT_NONE] = "NONE",
	[RESULT_SUCCESS] = "SUCCESS",
	[RESULT_SKIP] = "SKIP",
	[RESULT_FAIL] = "FAIL",
};

static const char *command_name = "igt";
static bool list_subtests;
static bool debug_output;
static char *run_filter;
static bool filter_matched;

static char *subtest_name;
static enum result subtest_result;
static struct timespec subtest_start;
static bool subtest_dynamic;
static unsigned int dynamic_ran, dynamic_failed;

static char *dynamic_name;
static enum result dynamic_result;
static struct timespec dynamic_start;

static bool in_fixture;
/* What a failed or skipped fixture does to every later subtest. */
static enum result subtests_henceforth = RESULT_NONE;

static unsigned int num_success, num_fail, num_skip;

static bool in_child;
static pid_t children[64];
static unsigned int num_children;

static const char *timeout_op;

static igt_exit_handler_t exit_handlers[8];
static unsigned int num_exit_handlers;
static bool exit_handlers_ran;

static double elapsed(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) +
	       (now.tv_nsec - start->tv_nsec) / 1e9;
}

static void run_exit_handlers(int sig)
{
	if (exit_handlers_ran || in_child)
		return;
	exit_handlers_ran = true;
	while (num_exit_handlers)
		exit_handlers[--num_exit_handlers](sig);
}

static void fatal_signal_handler(int sig)
{
	run_exit_handlers(sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

void igt_install_exit_handler(igt_exit_handler_t fn)
{
	static bool installed;

	if (num_exit_handlers < ARRAY_SIZE(exit_handlers))
		exit_handlers[num_exit_handlers++] = fn;
	if (!installed) {
		installed = true;
		signal(SIGINT, fatal_signal_handler);
		signal(SIGTERM, fatal_signal_handler);
		signal(SIGSEGV, fatal_signal_handler);
		signal(SIGABRT, fatal_signal_handler);
	}
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [OPTIONS]\n"
		"  --list-subtests\n"
		"  --run-subtest <pattern>\n"
		"  --debug\n"
		"  --help\n", command_name);
}

void igt_subtest_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list-subtests", no_argument, NULL, 'l' },
		{ "run-subtest", required_argument, NULL, 'r' },
		{ "debug", optional_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	command_name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
					     : argv[0];
	/* The runner reads our output interleaved with the kernel log. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			list_subtests = true;
			break;
		case 'r':
			run_filter = strdup(optarg);
			break;
		case 'd':
			debug_output = true;
			break;
		case 'h':
			usage(stdout);
			exit(IGT_EXIT_SUCCESS);
		default:
			usage(stderr);
			exit(IGT_EXIT_INVALID);
		}
	}
	if (optind < argc) {
		usage(stderr);
		exit(IGT_EXIT_INVALID);
	}

	if (!list_subtests)
		igt_info("IGT-Version: ugpu-compat (%s)\n", command_name);
}

bool igt_only_list_subtests(void)
{
	return list_subtests;
}

const char *igt_subtest_name(void)
{
	return subtest_name;
}

/* --run-subtest takes a comma-separated list of shell patterns. */
static bool filter_matches(const char *name)
{
	char *list, *tok, *save = NULL;
	bool match = false;

	if (!run_filter)
		return true;
	list = strdup(run_filter);
	for (tok = strtok_r(list, ",", &save); tok && !match;
	     tok = strtok_r(NULL, ",", &save))
		match = fnmatch(tok, name, 0) == 0;
	free(list);
	return match;
}

static void count_result(enum result r)
{
	switch (r) {
	case RESULT_SUCCESS:
		num_success++;
		break;
	case RESULT_SKIP:
		num_skip++;
		break;
	case RESULT_FAIL:
	default:
		num_fail++;
		break;
	}
}

bool __igt_run_subtest(const char *name)
{
	if (subtest_name) {
		fprintf(stderr, "Subtest %s nested in %s\n", name, subtest_name);
		exit(IGT_EXIT_INVALID);
	}
	if (list_subtests) {
		printf("%s\n", name);
		return false;
	}
	if (!filter_matches(name))
		return false;
	filter_matched = true;

	printf("Starting subtest: %s\n", name);
	if (subtests_henceforth != RESULT_NONE) {
		printf("Subtest %s: %s (0.000s)\n", name,
		       result_names[subtests_henceforth]);
		count_result(subtests_henceforth);
		return false;
	}

	subtest_name = strdup(name);
	subtest_result = RESULT_SUCCESS;
	subtest_dynamic = false;
	dynamic_ran = 0;
	dynamic_failed = 0;
	clock_gettime(CLOCK_MONOTONIC, &subtest_start);
	return true;
}

bool __igt_run_subtest_f(const char *fmt, ...)
{
	char name[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return __igt_run_subtest(name);
}

bool __igt_with_dynamic(void)
{
	subtest_dynamic = true;
	return true;
}

static void kill_children(void)
{
	unsigned int i;

	for (i = 0; i < num_children; i++) {
		kill(children[i], SIGKILL);
		waitpid(children[i], NULL, 0);
	}
	num_children = 0;
}

void __igt_subtest_end(void)
{
	enum result r = subtest_result;

	igt_set_timeout(0, NULL);
	/* Children left behind by a failure must not outlive the subtest. */
	kill_children();

	if (subtest_dynamic && r == RESULT_SUCCESS) {
		if (dynamic_failed)
			r = RESULT_FAIL;
		else if (!dynamic_ran)
			r = RESULT_SKIP;
	}
	printf("Subtest %s: %s (%.3fs)\n", subtest_name, result_names[r],
	       elapsed(&subtest_start));
	count_result(r);
	free(subtest_name);
	subtest_name = NULL;
	subtest_dynamic = false;
}

bool __igt_run_dynamic_subtest(const char *fmt, ...)
{
	char name[256];
	va_list ap;

	if (!subtest_name || !subtest_dynamic || dynamic_name) {
		fprintf(stderr, "igt_dynamic outside igt_subtest_with_dynamic\n");
		exit(IGT_EXIT_INVALID);
	}
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);

	printf("Starting dynamic subtest: %s\n", name);
	dynamic_name = strdup(name);
	dynamic_result = RESULT_SUCCESS;
	clock_gettime(CLOCK_MONOTONIC, &dynamic_start);
	return true;
}

void __igt_dynamic_end(void)
{
	kill_children();
	printf("Dynamic subtest %s: %s (%.3fs)\n", dynamic_name,
	       result_names[dynamic_result], elapsed(&dynamic_start));
	if (dynamic_result != RESULT_SKIP)
		dynamic_ran++;
	if (dynamic_result == RESULT_FAIL)
		dynamic_failed++;
	free(dynamic_name);
	dynamic_name = NULL;
}

bool __igt_fixture(void)
{
	if (list_subtests || subtests_henceforth != RESULT_NONE)
		return false;
	in_fixture = true;
	return true;
}

void __igt_fixture_end(void)
{
	in_fixture = false;
}

/* Leave the innermost running block with result @r. */
static __igt_noreturn void leave(enum result r, int exitcode)
{
	if (in_child)
		exit(exitcode);

	if (dynamic_name) {
		dynamic_result = r;
		siglongjmp(igt_dynamic_jmpbuf, 1);
	}
	if (subtest_name) {
		subtest_result = r;
		siglongjmp(igt_subtest_jmpbuf, 1);
	}
	if (in_fixture) {
		subtests_henceforth = r;
		siglongjmp(igt_fixture_jmpbuf, 1);
	}
	run_exit_handlers(0);
	exit(exitcode);
}

void igt_fail(int exitcode)
{
	leave(RESULT_FAIL, exitcode);
}

void igt_success_exit(void)
{
	exit(IGT_EXIT_SUCCESS);
}

void __igt_skip(const char *func, const char *file, int line,
		const char *fmt, ...)
{
	va_list ap;

	(void)func;
	(void)file;
	(void)line;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (in_child) {
		fprintf(stderr, "skip in a forked child\n");
		exit(IGT_EXIT_FAILURE);
	}
	leave(RESULT_SKIP, IGT_EXIT_SKIP);
}

void __igt_fail_assert(const char *func, const char *file, int line,
		       const char *assertion, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "(%s:%d) CRITICAL: Test assertion failure function %s, file %s:%d:\n",
		command_name, getpid(), func, file, line);
	fprintf(stderr, "(%s:%d) CRITICAL: Failed assertion: %s\n",
		command_name, getpid(), assertion);
	if (err)
		fprintf(stderr, "(%s:%d) CRITICAL: Last errno: %d, %s\n",
			command_name, getpid(), err, strerror(err));
	if (fmt) {
		fprintf(stderr, "(%s:%d) CRITICAL: ", command_name, getpid());
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
	}
	igt_fail(IGT_EXIT_FAILURE);
}

void igt_log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void igt_log_debug(const char *fmt, ...)
{
	va_list ap;

	if (!debug_output)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void igt_log_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void igt_exit(void)
{
	run_exit_handlers(0);
	if (list_subtests)
		exit(IGT_EXIT_SUCCESS);
	if (run_filter && !filter_matched) {
		fprintf(stderr, "Unknown subtest: %s\n", run_filter);
		exit(IGT_EXIT_INVALID);
	}
	if (num_fail)
		exit(IGT_EXIT_FAILURE);
	if (num_success)
		exit(IGT_EXIT_SUCCESS);
	if (subtests_henceforth == RESULT_FAIL)
		exit(IGT_EXIT_FAILURE);
	exit(IGT_EXIT_SKIP);
}

bool __igt_fork(void)
{
	pid_t pid;

	if (num_children >= ARRAY_SIZE(children)) {
		fprintf(stderr, "too many children\n");
		igt_fail(IGT_EXIT_FAILURE);
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "fork: %s\n", strerror(errno));
		igt_fail(IGT_EXIT_FAILURE);
	}
	if (pid == 0) {
		in_child = true;
		num_children = 0;
		num_exit_handlers = 0;
		return true;
	}
	children[num_children++] = pid;
	return false;
}

static int reap_children(int seconds)
{
	struct timespec start;
	unsigned int i, failed = 0;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < num_children; i++) {
		int status;
		pid_t r;

		for (;;) {
			r = waitpid(children[i], &status,
				    seconds ? WNOHANG : 0);
			if (r < 0 && errno == EINTR)
				continue;
			if (r != 0)
				break;
			if (elapsed(&start) > seconds)
				return -ETIMEDOUT;
			usleep(10000);
		}
		if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
			igt_warn("child %u (pid %d) failed: %s %d\n", i,
				 children[i],
				 r >= 0 && WIFSIGNALED(status) ? "signal" : "exit status",
				 r < 0 ? -1 : WIFSIGNALED(status) ?
				 WTERMSIG(status) : WEXITSTATUS(status));
			failed++;
		}
		children[i] = 0;
	}
	num_children = 0;
	return failed;
}

void igt_waitchildren(void)
{
	int failed = reap_children(0);

	igt_assert_f(failed == 0, "%d child(ren) failed\n", failed);
}

int igt_waitchildren_timeout(int seconds, const char *reason)
{
	int failed = reap_children(seconds);

	if (failed == -ETIMEDOUT) {
		igt_warn("children timed out: %s\n", reason);
		kill_children();
		igt_fail(IGT_EXIT_FAILURE);
	}
	igt_assert_f(failed == 0, "%d child(ren) failed\n", failed);
	return 0;
}

static void timeout_handler(int sig)
{
	(void)sig;
	/* Only async-signal-safe calls until the jump. */
	if (write(STDERR_FILENO, "Timed out: ", 11) < 0 ||
	    write(STDERR_FILENO, timeout_op, strlen(timeout_op)) < 0 ||
	    write(STDERR_FILENO, "\n", 1) < 0)
		_exit(IGT_EXIT_TIMEOUT);
	if (!subtest_name || in_child)
		_exit(IGT_EXIT_TIMEOUT);
	leave(RESULT_FAIL, IGT_EXIT_TIMEOUT);
}

void igt_set_timeout(unsigned int seconds, const char *op)
{
	struct sigaction sa = { .sa_handler = timeout_handler };

	timeout_op = op ? op : "";
	if (seconds)
		sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}
