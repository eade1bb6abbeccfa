/* trace.h: counterexamples.  A trace is the list of choices from the
** initial state (doc/architecture.md, "Reports are replays"); every format is rendered by
** replaying it: a text log in P's style, a JSON trace (doc/trace-format.md)
** and a .schedule file of the choices.  --replay reads a .schedule or a
** .json trace back and re-runs it, reporting where it stops fitting the
** model. */
#ifndef PCHECK_TRACE_H
#define PCHECK_TRACE_H
#include "checker/search/search.h"

/* What a trace file says besides its choices. */
/* The limits of a step and a State (VmTest.max_*) a trace may record, in
** this order: step instructions, inbox, machines, collection, State bytes. */
enum { TRACE_NLIMITS = 5 };

typedef struct TraceInfo {
  char *test;                /* test case name (heap) */
  char *search;              /* search that found it (heap, may be NULL) */
  uint64_t seed;
  TraceChoice *choices;      /* heap */
  uint64_t n;
  int64_t cycle_start;       /* a liveness cycle back to the state after this
                                many choices, or -1 */
  int unfair;                /* that cycle was found with --unfair (need not be fair) */
  int64_t temperature;       /* a spec hot for more steps than this ends the
                                trace (--liveness-temperature-threshold), or 0 */
  int has_limits;            /* a `limits:` line gave the VmTest limits the trace ran under: */
  uint64_t limits[TRACE_NLIMITS]; /* step instructions, inbox, machines, collection, State bytes */
  char *bug_kind;            /* the bug the trace records (vm_status_name; heap), or NULL (an older trace) */
  uint64_t bug_step;         /* the step it happens at */
} TraceInfo;

void trace_info_fini(TraceInfo *t);

/* The files a run wrote, in order (paths heap). */
typedef struct FileList {
  char **items;
  uint32_t n, cap;
} FileList;

void filelist_add(FileList *l, char *path /* takes */);
void filelist_fini(FileList *l);

/* Write the formats in `formats` (comma list of text,json,schedule,msc,
** html,dot) of the bug in res into directory dir as NAME.txt, .json,
** .schedule, .mmd, .html, .dot (NAME = the test case name), each through
** a temporary file renamed over the old one; the paths written are added
** to written.  Returns 0, or -1 with a message on stderr. */
int trace_write(const BcProgram *bc, const VmTest *test, const char *test_name, const char *search,
                uint64_t seed, const SearchResult *res, const char *dir, const char *formats, FileList *written);

/* Create dir and its parents as needed.  0, or -1 with errno set. */
int trace_mkdirs(const char *dir);

/* Do the formats need every machine's view per step (TdMeta.views)? */
int trace_wants_views(const char *formats);
/* formats lists a file --replay reads back (schedule or json). */
int trace_replayable(const char *formats);

struct TraceDoc;
/* Write the formats of an already built document (trace_write's second
** half; --replay renders through it).  0, or -1 with a message on stderr. */
int trace_render(const struct TraceDoc *d, const char *dir, const char *formats, FileList *written);

/* Remove the trace files an earlier run left for this test in dir (every
** format's NAME.ext and NAME.explorer-failure.schedule) but those this run
** wrote (keep, NULL for none), so that a run never leaves old traces beside
** its own; each removed file is said on stdout ("removed: PATH ..."), never
** silently (a file this run rewrote is said by its "wrote:" line). Called
** when the run's own files are written, at its end. */
void trace_remove_stale(const char *dir, const char *test_name, const FileList *keep);

/* Write only a .schedule of res's trace, as DIR/TEST.WHAT.schedule, for a
** search that stopped on res->error (e.g. an unsound explorer): the way to
** the state where it happened.  Returns 0 (path in *path_out, heap) or -1. */
int trace_write_schedule(const char *test_name, const char *search, uint64_t seed, const SearchResult *res,
                         const uint64_t *limits, const char *dir, const char *what, char **path_out);

/* Write the choices c[0..n) to path as a .schedule file (version 2) with
** its header, unless NULL a `limits:` line (TRACE_NLIMITS numbers, so
** that a replay runs under the same limits) and one comment line; through
** a temporary file.  0, or -1 with a message on stderr. */
int trace_write_choices(const char *path, const char *test_name, const char *search, uint64_t seed, const uint64_t *limits,
                        const char *comment, const TraceChoice *c, uint64_t n);

/* Read a .schedule or .json trace, of version 1 (machine choices count
** ids from 0) or 2 (from 1, as logs show them); out->choices hold VM ids
** (from 0) either way.  Returns 0, or -1 with a message
** (naming the file and line or byte) in err. */
int trace_read(const char *path, TraceInfo *out, Buf *err);
/* The same for a trace's text (len bytes, any bytes), path naming it in
** messages: what trace_read does once it has read the file. */
int trace_parse(const char *path, const char *text, size_t len, TraceInfo *out, Buf *err);

/* Replay choices, printing the log to `log`, each line prefixed with its
** step number ("[3] <SendLog> ...").  With cycle_start >= 0 the
** trace is a liveness lasso: it is a bug if the last state equals the
** state after cycle_start choices, some spec is hot in every state of the
** cycle and, unless unfair, the cycle is fair (doc/liveness.md).  With
** temperature > 0, a spec hot for more steps than that is a bug, counted
** as the sampling searches count (checker/engine/liveness.h).  With fail_at > 0
** (a trace of --fail-on-maxsteps), an execution still going after its
** fail_at-th step, the trace's last, is a bug (VM_BUG_MAX_STEPS).  Returns 1 if a bug
** was reached (described in *bug, message heap), 0 if the trace ran to its
** end without one, -1 if it does not fit the model (the step and what was
** enabled instead, or why the lasso is no bug, in err). */
int trace_replay(const BcProgram *bc, const VmTest *test, const TraceChoice *choices, uint64_t n,
                 int64_t cycle_start, int unfair, int64_t temperature, uint64_t fail_at, Buf *log, VmBug *bug,
                 uint64_t *bug_step, Buf *err);

#endif
