// pcheck-args: --search random --seed 1 --schedules 20
// Assignment through chains of index, field and element access.
type tCell = (vals: seq[int], tag: (string, int));
machine Main {
  start state S {
    entry {
      var grid: seq[seq[int]];
      var cells: map[int, tCell];
      var t: (seq[int], map[string, bool]);
      grid += (0, default(seq[int]));
      grid[0] += (0, 1);
      grid[0] += (1, 2);
      grid[0][1] = 20;
      cells[7] = (vals = grid[0], tag = ("t", 0));
      cells[7].vals[0] = 10;
      cells[7].tag.1 = 5;
      cells[7].vals -= 1;
      t.0 += (0, 3);
      t.0[0] = 30;
      t.1["k"] = true;
      t.1["k"] = !t.1["k"];
      assert grid[0][1] == 20 && cells[7].vals[0] == 10 && sizeof(cells[7].vals) == 1;
      assert cells[7].tag.1 == 5 && t.0[0] == 30 && !t.1["k"];
    }
  }
}
