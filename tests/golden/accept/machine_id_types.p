// pcheck-args: --search random --seed 1 --schedules 20
// Machine-name types, machine and their conversions: a named id is a
// machine; as and to recover the name; ids compare by identity.  As in P, a
// machine-name type does not take null (a 'machine' does); its default is null.
event eWho : machine;
machine Worker { start state S { on eWho do (m: machine) { assert m != this; } } }
machine Main {
  var w1: Worker; var w2: Worker; var any1: machine; var all: seq[Worker]; var byId: map[Worker, int];
  start state S {
    entry {
      w1 = new Worker(); w2 = new Worker();
      any1 = w1;
      assert any1 == w1 && w1 != w2 && any1 as Worker == w1;
      all += (0, w1); all += (1, w2);
      byId[w1] = 1; byId[w2] = 2;
      assert byId[all[1]] == 2 && w2 in byId;
      send all[0], eWho, this;
      send any1, eWho, w2;
      any1 = null;
      assert any1 == null && (default(Worker) as machine) == null && any1 as Worker == default(Worker);
      w2 = any1 to Worker;
    }
  }
}
