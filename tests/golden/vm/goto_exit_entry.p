// pcheck-args: --search random --seed 1 --schedules 1 -v
// goto runs the exit function, then the target's entry with the payload;
// `on e goto S with F` runs F between them.
event eGo : int;
machine Main {
  var log: seq[string];
  start state A {
    entry { send this, eGo, 5; }
    exit { log += (sizeof(log), "exit A"); }
    on eGo goto B with (x: int) { log += (sizeof(log), format("with {0}", x)); }
  }
  state B {
    entry (x: int) {
      log += (sizeof(log), format("entry B {0}", x));
      goto C, x + 1;
    }
    exit { log += (sizeof(log), "exit B"); }
  }
  state C {
    entry (y: int) {
      log += (sizeof(log), format("entry C {0}", y));
      print format("{0}", log);
      assert sizeof(log) == 5;
    }
  }
}
