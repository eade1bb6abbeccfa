// expect: spec 'Watch' is asserted twice on the same module
event e;
spec Watch observes e { start state S { on e do { } } }
machine Main { start state S { } }
test tc [main=Main]: assert Watch in (assert Watch in { Main });
