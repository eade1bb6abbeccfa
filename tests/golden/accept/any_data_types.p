// pcheck-args: --search random --seed 1 --schedules 20
// any and data hold values of every type.
machine Main {
  start state S {
    entry {
      var a: any; var d: data; var xs: seq[any];
      a = 1; a = "s"; a = (1, 2); a = this;
      d = 3; d = (x = 1,);
      xs += (0, 1); xs += (1, "two"); xs += (2, null);
      assert sizeof(xs) == 3 && xs[2] == null;
    }
  }
}
