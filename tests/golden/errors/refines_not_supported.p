// Refinement tests: P's own checker stops on them (not implemented); pcheck says so at the test.
machine Main { start state S { } }
module A = { Main };
test tc [main=Main]: A refines A;
