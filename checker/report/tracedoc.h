/* tracedoc.h: a counterexample as a document.  tracedoc_build replays a
** trace's choices once, with the VM's log and step events on, and keeps
** everything any format shows: per step, the choice, the machine that
** acted, its events and its log lines; per machine and spec, its state,
** variables and inbox after every step where they changed.  The renderers
** (checker/report/trace.c: text, json, schedule, msc, dot; checker/report/report_html.c:
** html) only read the document.  Steps are numbered from 1 (the choices);
** step 0 is the initial state, what vm_initial did. */
#ifndef PCHECK_TRACEDOC_H
#define PCHECK_TRACEDOC_H
#include "checker/search/search.h"

/* One thing a step did (a VmEvent in text). Strings are heap, owned by
** the document; NULL where the kind has none. */
typedef struct TdEvent {
  uint64_t step;             /* the step that did it (0: the initial state) */
  VmEventKind kind;
  int spec;                  /* the actor is a spec */
  uint32_t actor;            /* TraceDoc.machines index of the actor */
  char *state;               /* state entered / the actor's state, by kind as in the JSON trace */
  char *event;               /* event name */
  int32_t other;             /* TraceDoc.machines index of the send's or drop's target, or of a
                                creation's creator; -1 if none (created by the test) */
  char *payload;             /* payload text, a choice's value, a print's text */
  char *file;                /* source location relative to the current folder, or NULL */
  uint32_t line, col;
} TdEvent;

/* A machine's or spec's view from one step on (until its next TdSnap). */
typedef struct TdSnap {
  uint64_t step;             /* holds after this step */
  char *state;               /* current state */
  char *status;              /* VmView.status: "halted", "receiving", ..., or "" */
  uint16_t nvars;
  char **var_names;          /* nvars names */
  char **var_values;         /* nvars texts */
  uint32_t ninbox;
  char **inbox;              /* ninbox texts, oldest first */
} TdSnap;

/* A spec or a machine of the trace. Specs come first, then machines in
** the order of their ids (index = nspecs + id). */
typedef struct TdMachine {
  char *name;                /* "Client(2)" (as logs show it), or the spec's name */
  char *type;                /* machine or spec type */
  int spec;
  uint64_t created;          /* step that created it (0 for specs and the first machines) */
  TdSnap *snaps;             /* one per step where its view changed, steps ascending */
  uint32_t nsnaps, snaps_cap;
} TdMachine;

/* One step: a choice and what it did. */
typedef struct TdStep {
  TraceChoice choice;        /* what was chosen (step 0: none, kind VC_NONE) */
  int32_t actor;             /* machines index of the machine that ran or chose, or -1 */
  uint32_t first_event;      /* TraceDoc.events index of its first event */
  uint32_t nevents;
  size_t log_at, log_len;    /* its lines in TraceDoc.log */
} TdStep;

typedef struct TraceDoc {
  char *test;                /* test case */
  char *search;              /* the search that found it, or "" */
  uint64_t seed;
  VmBug bug;                 /* what the trace shows (message heap, file borrowed from the
                                program); status VM_OK if the replay reached no bug */
  char *bug_file;            /* bug.file relative to the current folder (heap), or NULL */
  uint64_t bug_step;         /* the step where the bug happened (the last step) */
  int64_t cycle_start;       /* a lasso: the last steps return to the state after this step; or -1 */
  int unfair;                /* the lasso was found with --unfair */
  int64_t temperature;       /* VM_BUG_HOT_TEMP: the threshold */
  TdStep *steps;             /* nsteps + 1 entries, step 0 the initial state */
  uint64_t nsteps;           /* choices replayed (the trace's length unless the bug came earlier) */
  TdEvent *events;
  uint32_t nevents, events_cap;
  TdMachine *machines;       /* specs, then machines by id */
  uint32_t nmachines, machines_cap;
  uint32_t nspecs;
  int views;                 /* the machines' views were kept (TdMachine.snaps) */
  Buf log;                   /* the P-style log lines of all steps, without step numbers */
  const struct CovReport *coverage; /* TdMeta.coverage (borrowed: valid while the document is rendered) */
} TraceDoc;

/* What the trace is, besides its choices. */
typedef struct TdMeta {
  const char *test, *search; /* borrowed */
  uint64_t seed;
  const VmBug *bug;          /* the bug to show (copied), or NULL: whatever the replay reaches */
  int64_t cycle_start;       /* -1 if not a lasso */
  int unfair;
  int64_t temperature;
  int views;                 /* keep every machine's view after every step (for html) */
  const struct CovReport *coverage; /* what the search covered, for the HTML report (borrowed), or NULL */
} TdMeta;

/* Is choice c one of those ch offers (a running machine, or an option of
** the data choice)?  Both replays of a trace ask it at every step. */
int tracedoc_fits(const VmChoices *ch, const TraceChoice *c);

/* Replay choices[0..n) on a fresh Vm and fill d.  A replay that stops
** early (a step fails) keeps the steps up to there.  0, or -1 with a
** message in err when the choices do not fit the model; d is to be
** freed with tracedoc_fini either way. */
int tracedoc_build(TraceDoc *d, const BcProgram *bc, const VmTest *test, const TdMeta *meta,
                   const TraceChoice *choices, uint64_t n, Buf *err);
void tracedoc_fini(TraceDoc *d);

/* The view of machine m after step `step` (its last TdSnap at or before
** it), or NULL when it did not exist yet. */
const TdSnap *tracedoc_view(const TraceDoc *d, uint32_t m, uint64_t step);

/* A bug's message without the words its kind already says (an assertion
** failure's "assertion failed: "), for lines that show both. */
const char *tracedoc_bug_message(const VmBug *b);

/* The name of an event kind as the JSON trace spells it ("send", ...). */
const char *tracedoc_kind_name(VmEventKind k);

/* Render d as the self-contained HTML report (checker/report/report_html.c):
** appended to out. */
void report_html(Buf *out, const TraceDoc *d);

#endif
