/* peakmem.c: run a command and report its peak resident memory, as the
** kernel counted it (getrusage of the child: ru_maxrss).
**   peakmem COMMAND [ARG...]
** prints "peak-kib: N" on stderr and exits with the command's status (128 +
** the signal if it was killed).  tests/memory.sh and bench/memory.sh use it
** to hold a run to its --mem budget. */
#define _DEFAULT_SOURCE   /* wait4 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: peakmem COMMAND [ARG...]\n", stderr);
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0) { perror("peakmem: fork"); return 2; }
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    perror("peakmem: exec");
    _exit(127);
  }
  int status;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) < 0) { perror("peakmem: wait4"); return 2; }
  fprintf(stderr, "peak-kib: %ld\n", ru.ru_maxrss);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}
