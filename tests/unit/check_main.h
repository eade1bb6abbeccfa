/* check_main.h: run a Check suite without forking and end with the line
** "# passed: N failed: M" that tests/summary.sh adds up. */
#ifndef PCHECK_CHECK_MAIN_H
#define PCHECK_CHECK_MAIN_H
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

static inline int run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_NORMAL);
  int run = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  printf("# passed: %d failed: %d\n", run - failed, failed);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
