// ses must look at --timeout, Ctrl-C and SearchOptions.stop even when
// every delay bound takes fewer than 1024 transitions: here each bound
// adds a state or two, for ever (tests/search.sh, 6):
//   pcheck --search ses --no-reduction --timeout 1 --max-inbox 0 ses_few_steps.p
// ends "bounded: timeout".  It ran until killed while run_stratum reset
// its count of transitions to the next periodic() at each stratum (found
// while building the reduction's differential test; with the reduction
// the graph is finite: complete).
// max-inbox: 0
// extras: main-loop forever (by hand)
event eTick;
machine Main { var sink: Sink; start state Init { entry { sink = new Sink(); while (true) { send sink, eTick; } } } }
machine Sink { start state S { on eTick do { } } }
test tc [main=Main]: { Main, Sink };
