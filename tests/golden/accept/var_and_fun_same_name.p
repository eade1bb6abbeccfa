// pcheck-args: -S dfs --mem 1G
// A machine's variable and function may share a name: P keeps them in
// separate name spaces (P 3.1 compiles this), so a call names the function
// and every other use the variable.
event eAgain;
machine Main {
  var ready: bool;
  fun ready(): bool { return !ready; }
  start state S {
    entry { ready = ready(); assert ready, "the var holds the function's result"; raise eAgain; }
    on eAgain do ready;
  }
}
