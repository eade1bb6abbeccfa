// expect: only `scenario` may stand before a name and `observes` at the top level
event e;
senario S observes e { start state A { } }
