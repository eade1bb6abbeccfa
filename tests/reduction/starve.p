// expect: assertion failure
// searches: dfs bfs portfolio
// A machine loops for ever on self-sends; another, created after it,
// reaches a bug in two steps.  The persistent sets kept choosing the
// looper (the lower id) at every state: reduced bfs claimed "no bug within
// depth 461054" about a bug at depth 4.  (ses and pb follow the looper as
// they do without the reduction.)
event eLoop; event eGo;
machine Looper { var n: int; start state S { entry { send this, eLoop; } on eLoop do { n = n + 1; send this, eLoop; } } }
machine Victim { start state S { on eGo do { assert false, "reached"; } } }
machine Kicker { start state S { entry (v: Victim) { send v, eGo; } } }
machine Main { start state Init { entry { new Looper(); new Kicker(new Victim()); } } }
