// hidee: an event in the receive set of an interface that is bound but not created cannot be hidden.
event e;
machine Main { start state S { } }
module A = hidee e in { Main };
