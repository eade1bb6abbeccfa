// P: the bound machine's start state must accept the interface's payload.
interface Store(int) receives;
machine Keeper { start state S { entry (name: string) { } } }
machine Main { start state S { entry { new Store(1); } } }
test tc [main=Main]: { Main, Keeper -> Store };
