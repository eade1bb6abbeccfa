// An event set is a permission type: a machine reference allowed to receive its events.
event e;
eventset Es = { e };
machine Main { start state S { } }
