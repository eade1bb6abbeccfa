// expect: none
// searches: bfs
// No bug, no end: two counters that never stop.  A reduced bfs stopped by
// its timeout may claim a depth of the reduced graph only, and the number
// of steps that depth covers (at most an eighth of it).
event eLoop;
machine Looper { var n: int; start state S { entry { send this, eLoop; } on eLoop do { n = n + 1; send this, eLoop; } } }
machine Main { start state Init { entry { new Looper(); new Looper(); } } }
