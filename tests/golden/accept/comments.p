// Line and block comments anywhere.
/* a block comment
   over lines */
event e; // a line comment
machine /* inline */ Main {
  start state S { // here too
    entry { /* and here */ }
  }
}
