// hidei: only an interface both created and bound in the module can be hidden.
machine Main { start state S { } }
module A = hidei Main in { Main };
