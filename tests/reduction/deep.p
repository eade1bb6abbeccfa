// expect: assertion failure
// A bug 5,001 steps deep, behind a counter and a bystander whose
// steps commute with it: with a 2 MiB cache (deeper.p, tests/soundness.sh) the state
// cache fills long before it, and every search must still find it or stop
// "bounded", never claim "complete".
event eTick; event eNudge;
machine Counter { var n: int;
  start state S { entry { send this, eTick; }
    on eTick do { n = n + 1; assert n < 5000, "counted to 5000"; send this, eTick; } } }
machine Bystander { var k: int; start state S { on eNudge do { k = 1 - k; } } }
machine Main { var b: Bystander;
  start state Init { entry { new Counter(); b = new Bystander(); while (true) { receive { case eNudge: { } } } } } }
