// pcheck-args: --search random --seed 1 --schedules 1 -v
// `on null goto S with F`: a default transition when nothing can be dequeued.
machine Main {
  var ticks: int;
  start state Waiting {
    on null goto Fired with { ticks = ticks + 1; }
  }
  state Fired {
    entry { assert ticks == 1; print "fired once"; }
  }
}
