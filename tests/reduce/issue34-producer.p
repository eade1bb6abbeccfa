// Issue 34: a producer that never waits; the reduced searches reported
// "complete: no bug" where the unreduced ones find the inbox overflow.
// max-inbox: 3
// extras: main-loop forever (by hand)
event eTick;
machine Main { var sink: Sink; start state Init { entry { sink = new Sink(); while (true) { send sink, eTick; } } } }
machine Sink { start state S { on eTick do { } } }
test tc [main=Main]: { Main, Sink };
