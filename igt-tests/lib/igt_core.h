/* SPDX-License-Identifier: MIT */
/*
 * A small subset of the IGT GPU Tools core API (igt_core.h), with the
 * same names and the same semantics, so that the ugpu tests can be moved
 * into the IGT tree without changes.
 *
 * A test binary is a sequence of fixtures and subtests inside igt_main.
 * Fixtures always run (except when only listing subtests); a subtest runs
 * only when selected with --run-subtest, or when no subtest is selected.
 * A failed assertion ends the current subtest (or dynamic subtest) with
 * a longjmp; a failing or skipping fixture makes every later subtest fail
 * or skip.
 */
#ifndef IGT_CORE_H
#define IGT_CORE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>
#include <sys/types.h>

/* Exit codes, as IGT and its runners know them. */
#define IGT_EXIT_SUCCESS	0
#define IGT_EXIT_INVALID	79
#define IGT_EXIT_TIMEOUT	78
#define IGT_EXIT_SKIP		77
#define IGT_EXIT_FAILURE	98
#define IGT_EXIT_ABORT		112

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define __igt_printf_fmt(a, b) __attribute__((format(printf, a, b)))
#define __igt_noreturn __attribute__((noreturn))

extern sigjmp_buf igt_subtest_jmpbuf;
extern sigjmp_buf igt_dynamic_jmpbuf;
extern sigjmp_buf igt_fixture_jmpbuf;

void igt_subtest_init(int argc, char **argv);
__igt_noreturn void igt_exit(void);

bool __igt_run_subtest(const char *name);
bool __igt_run_subtest_f(const char *fmt, ...) __igt_printf_fmt(1, 2);
void __igt_subtest_end(void);
bool __igt_run_dynamic_subtest(const char *fmt, ...) __igt_printf_fmt(1, 2);
void __igt_dynamic_end(void);
bool __igt_with_dynamic(void);
bool __igt_fixture(void);
void __igt_fixture_end(void);

/* Where the body of igt_main goes: a main() that parses the options. */
#define igt_main							\
	static void __igt_main_body(void);				\
	int main(int argc, char **argv)					\
	{								\
		igt_subtest_init(argc, argv);				\
		__igt_main_body();					\
		igt_exit();						\
	}								\
	static void __igt_main_body(void)

/*
 * igt_fixture - setup or teardown code run whatever subtest is selected.
 * The for loop runs the body once; the if catches the longjmp of a
 * failure or skip inside it.
 */
#define igt_fixture							\
	for (bool __igt_fx = __igt_fixture(); __igt_fx;			\
	     __igt_fx = false, __igt_fixture_end())			\
		if (sigsetjmp(igt_fixture_jmpbuf, 1) == 0)

/* igt_subtest - a named subtest; its body runs only when selected. */
#define igt_subtest(name)						\
	for (bool __igt_st = __igt_run_subtest(name); __igt_st;		\
	     __igt_st = false, __igt_subtest_end())			\
		if (sigsetjmp(igt_subtest_jmpbuf, 1) == 0)

#define igt_subtest_f(...)						\
	for (bool __igt_st = __igt_run_subtest_f(__VA_ARGS__); __igt_st; \
	     __igt_st = false, __igt_subtest_end())			\
		if (sigsetjmp(igt_subtest_jmpbuf, 1) == 0)

/*
 * igt_subtest_with_dynamic - a subtest made of dynamic subtests
 * (igt_dynamic, igt_dynamic_f), e.g. one per device. It fails when one of
 * them fails and skips when none of them ran.
 */
#define igt_subtest_with_dynamic(name)					\
	for (bool __igt_st = __igt_run_subtest(name) &&			\
			     __igt_with_dynamic(); __igt_st;		\
	     __igt_st = false, __igt_subtest_end())			\
		if (sigsetjmp(igt_subtest_jmpbuf, 1) == 0)

#define igt_subtest_with_dynamic_f(...)					\
	for (bool __igt_st = __igt_run_subtest_f(__VA_ARGS__) &&	\
			     __igt_with_dynamic(); __igt_st;		\
	     __igt_st = false, __igt_subtest_end())			\
		if (sigsetjmp(igt_subtest_jmpbuf, 1) == 0)

#define igt_dynamic_f(...)						\
	for (bool __igt_dy = __igt_run_dynamic_subtest(__VA_ARGS__); __igt_dy; \
	     __igt_dy = false, __igt_dynamic_end())			\
		if (sigsetjmp(igt_dynamic_jmpbuf, 1) == 0)

#define igt_dynamic(name) igt_dynamic_f("%s", (name))

/* Grouping only scopes fixtures and variables; nothing to do here. */
#define igt_subtest_group for (int __igt_grp = 0; __igt_grp < 1; __igt_grp++)

/* Documentation of a subtest; IGT keeps it for its tooling. */
#define igt_describe(str) do { (void)(str); } while (0)

bool igt_only_list_subtests(void);
const char *igt_subtest_name(void);

__igt_noreturn void igt_fail(int exitcode);
__igt_noreturn void igt_success_exit(void);
__igt_noreturn void __igt_skip(const char *func, const char *file, int line,
			       const char *fmt, ...) __igt_printf_fmt(4, 5);
__igt_noreturn void __igt_fail_assert(const char *func, const char *file,
				      int line, const char *assertion,
				      const char *fmt, ...)
	__igt_printf_fmt(5, 6);

void igt_log_info(const char *fmt, ...) __igt_printf_fmt(1, 2);
void igt_log_debug(const char *fmt, ...) __igt_printf_fmt(1, 2);
void igt_log_warn(const char *fmt, ...) __igt_printf_fmt(1, 2);

#define igt_info(...) igt_log_info(__VA_ARGS__)
#define igt_debug(...) igt_log_debug(__VA_ARGS__)
#define igt_warn(...) igt_log_warn(__VA_ARGS__)
#define igt_warn_on(cond) ({ bool __c = (cond); \
	if (__c) igt_warn("Warning on condition %s in %s, %s:%d\n", \
			  #cond, __func__, __FILE__, __LINE__); __c; })

#define igt_skip(...) __igt_skip(__func__, __FILE__, __LINE__, __VA_ARGS__)

#define igt_require(cond) do {						\
	if (!(cond))							\
		__igt_skip(__func__, __FILE__, __LINE__,		\
			   "Test requirement: %s\n", #cond);		\
} while (0)

#define igt_require_f(cond, ...) do {					\
	if (!(cond)) {							\
		igt_info("Test requirement: %s\n", #cond);		\
		__igt_skip(__func__, __FILE__, __LINE__, __VA_ARGS__);	\
	}								\
} while (0)

#define igt_skip_on(cond) igt_require(!(cond))
#define igt_skip_on_f(cond, ...) igt_require_f(!(cond), __VA_ARGS__)

#define igt_assert(expr) do {						\
	if (!(expr))							\
		__igt_fail_assert(__func__, __FILE__, __LINE__, #expr, NULL); \
} while (0)

#define igt_assert_f(expr, ...) do {					\
	if (!(expr))							\
		__igt_fail_assert(__func__, __FILE__, __LINE__, #expr,	\
				  __VA_ARGS__);				\
} while (0)

#define igt_fail_on(expr) igt_assert(!(expr))
#define igt_fail_on_f(expr, ...) igt_assert_f(!(expr), __VA_ARGS__)

/* Comparisons that print both values when they fail. */
#define igt_assert_cmpint(n1, cmp, ncmp, n2) do {			\
	int __n1 = (n1), __n2 = (n2);					\
	if (!(__n1 cmp __n2))						\
		__igt_fail_assert(__func__, __FILE__, __LINE__,		\
				  #n1 " " #cmp " " #n2,			\
				  "error: %d " #ncmp " %d\n", __n1, __n2); \
} while (0)

#define igt_assert_cmpuint(n1, cmp, ncmp, n2) do {			\
	uint32_t __n1 = (n1), __n2 = (n2);				\
	if (!(__n1 cmp __n2))						\
		__igt_fail_assert(__func__, __FILE__, __LINE__,		\
				  #n1 " " #cmp " " #n2,			\
				  "error: %#x " #ncmp " %#x\n", __n1, __n2); \
} while (0)

#define igt_assert_cmps64(n1, cmp, ncmp, n2) do {			\
	int64_t __n1 = (n1), __n2 = (n2);				\
	if (!(__n1 cmp __n2))						\
		__igt_fail_assert(__func__, __FILE__, __LINE__,		\
				  #n1 " " #cmp " " #n2,			\
				  "error: %lld " #ncmp " %lld\n",	\
				  (long long)__n1, (long long)__n2);	\
} while (0)

#define igt_assert_cmpu64(n1, cmp, ncmp, n2) do {			\
	uint64_t __n1 = (n1), __n2 = (n2);				\
	if (!(__n1 cmp __n2))						\
		__igt_fail_assert(__func__, __FILE__, __LINE__,		\
				  #n1 " " #cmp " " #n2,			\
				  "error: %#llx " #ncmp " %#llx\n",	\
				  (unsigned long long)__n1,		\
				  (unsigned long long)__n2);		\
} while (0)

#define igt_assert_eq(n1, n2) igt_assert_cmpint(n1, ==, !=, n2)
#define igt_assert_neq(n1, n2) igt_assert_cmpint(n1, !=, ==, n2)
#define igt_assert_lt(n1, n2) igt_assert_cmpint(n1, <, >=, n2)
#define igt_assert_lte(n1, n2) igt_assert_cmpint(n1, <=, >, n2)
#define igt_assert_eq_u32(n1, n2) igt_assert_cmpuint(n1, ==, !=, n2)
#define igt_assert_neq_u32(n1, n2) igt_assert_cmpuint(n1, !=, ==, n2)
#define igt_assert_lt_u32(n1, n2) igt_assert_cmpuint(n1, <, >=, n2)
#define igt_assert_lte_u32(n1, n2) igt_assert_cmpuint(n1, <=, >, n2)
#define igt_assert_eq_s64(n1, n2) igt_assert_cmps64(n1, ==, !=, n2)
#define igt_assert_lt_s64(n1, n2) igt_assert_cmps64(n1, <, >=, n2)
#define igt_assert_lte_s64(n1, n2) igt_assert_cmps64(n1, <=, >, n2)
#define igt_assert_eq_u64(n1, n2) igt_assert_cmpu64(n1, ==, !=, n2)
#define igt_assert_neq_u64(n1, n2) igt_assert_cmpu64(n1, !=, ==, n2)
#define igt_assert_lt_u64(n1, n2) igt_assert_cmpu64(n1, <, >=, n2)
#define igt_assert_lte_u64(n1, n2) igt_assert_cmpu64(n1, <=, >, n2)

/*
 * Multi-process tests: the body of igt_fork runs in num_children child
 * processes; igt_waitchildren waits for them and fails when one failed.
 * A failed assertion in a child ends that child with IGT_EXIT_FAILURE.
 */
bool __igt_fork(void);
void igt_waitchildren(void);
int igt_waitchildren_timeout(int seconds, const char *reason);

#define igt_fork(child, num_children)					\
	for (int child = 0; child < (num_children); child++)		\
		for (; __igt_fork(); exit(0))

/* Abort the current subtest with a failure after @seconds (0 disarms). */
void igt_set_timeout(unsigned int seconds, const char *op);

/* Handlers run at exit, e.g. to rebind a device a test unbound. */
typedef void (*igt_exit_handler_t)(int sig);
void igt_install_exit_handler(igt_exit_handler_t fn);

#endif /* IGT_CORE_H */
