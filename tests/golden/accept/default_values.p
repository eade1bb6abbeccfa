// pcheck-args: --search random --seed 1 --schedules 20
// default(T) for every kind of type.
enum E { A, B }
machine Main {
  start state S {
    entry {
      assert default(int) == 0 && default(bool) == false && default(float) == 0.0;
      assert default(string) == "" && default(E) == A && default(machine) == null;
      assert sizeof(default(seq[int])) == 0 && sizeof(default(map[int, int])) == 0;
      assert default((int, bool)).0 == 0 && default((a: string, b: int)).a == "";
      assert default(event) == null && default(any) == null;
    }
  }
}
