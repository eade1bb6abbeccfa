// compose needs disjoint outputs: two machines without a sends clause both send every event (halt first).
machine Main { start state S { } }
machine B { start state S { } }
module A = compose { Main }, { B };
