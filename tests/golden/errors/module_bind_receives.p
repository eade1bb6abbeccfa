// P: binding a machine to an interface needs the interface's receive set
// inside the machine's.
event eA;
event eB;
interface Store() receives eA, eB;
machine Small receives eA; { start state S { on eA do { } } }
machine Main { start state S { entry { new Store(); } } }
test tc [main=Main]: { Main, Small -> Store };
