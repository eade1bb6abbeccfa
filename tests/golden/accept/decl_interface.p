// An interface declaration: a name new creates, bound to a machine by a test module.
event e;
interface I() receives e;
machine Main { start state S { } }
