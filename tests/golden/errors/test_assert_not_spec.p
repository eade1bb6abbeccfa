// expect: is a machine, not a spec
machine Main { start state S { } }
test tc [main=Main]: assert Main in { Main };
