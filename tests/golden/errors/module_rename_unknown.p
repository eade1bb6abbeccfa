// rename: the new name must be a declared interface.
machine Main { start state S { } }
module A = rename Main to M2 in { Main };
