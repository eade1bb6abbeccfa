// A set index is an int position, not an element.
machine Main {
  var s: set[string];
  start state Init {
    entry {
      s += ("a");
      print s["a"];
    }
  }
}
