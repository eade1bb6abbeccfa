// A non-ASCII character outside a string or comment is one error, and the
// caret lines up under it.
machine Main {
  start state Init ∏
    entry { }
  }
}
