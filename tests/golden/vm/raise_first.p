// pcheck-args: --search random --seed 1 --schedules 1 -v
// A raised event is handled before anything in the inbox.
event eInbox; event eRaised : int;
machine Main {
  var order: seq[string];
  start state Init {
    entry {
      send this, eInbox;
      raise eRaised, 7;
    }
    on eRaised do (x: int) { order += (sizeof(order), format("raised {0}", x)); }
    on eInbox do {
      order += (sizeof(order), "inbox");
      assert order[0] == "raised 7" && order[1] == "inbox", "raised event first";
      print format("order: {0}", order);
    }
  }
}
