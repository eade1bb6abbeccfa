// Open (not a reduction bug; found while building the differential test):
// ses never looks at --timeout, Ctrl-C or SearchOptions.stop when every
// delay bound takes fewer than 1024 transitions (run_stratum resets
// next_tick at each stratum, so periodic() never runs). Here each bound
// adds a state or two, for ever:
//   pcheck --search ses --no-reduction --timeout 3 --max-inbox 0 ses-no-stop.p
// runs until killed (with the reduction the graph is finite: complete).
// max-inbox: 0
// extras: main-loop forever (by hand)
event eTick;
machine Main { var sink: Sink; start state Init { entry { sink = new Sink(); while (true) { send sink, eTick; } } } }
machine Sink { start state S { on eTick do { } } }
test tc [main=Main]: { Main, Sink };
