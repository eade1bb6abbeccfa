// expect: bounds on instances are P 2 syntax
// P 2's "assert N" / "assume N" after an event or machine name: P 3.1's
// parser rejects them; pcheck says so instead of ignoring the bound.
event eReq assume 3;
event eResp assert 2 : int;
machine Main assume 10 {
  start state S { }
}
