// escape.p: markup in a variable, a payload, a print and the bug message
// must show as text in the HTML report, and must not end its script or
// its JSON early (tests/html.sh checks that the page still works).
event eNote : string;
machine Main {
  var text: string;
  start state Init {
    entry {
      text = "</script><img src=x onerror=alert(1)><!-- &amp; \"quoted\" 'single' café ✓ [ ]";
      send this, eNote, text;
    }
    on eNote do (s: string) {
      print s;
      assert false, format("markup {0}", s);
    }
  }
}
