// pcheck-args: --search random --seed 1 --schedules 1 -v
// P checks a machine's sends clause when it sends: eOther is not in it.
event eOk;
event eOther;
machine Main
  sends eOk;
{
  start state S {
    entry { send this, eOk; send this, eOther; }
    ignore eOk, eOther;
  }
}
