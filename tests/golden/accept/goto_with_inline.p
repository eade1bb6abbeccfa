// pcheck-args: --search random --seed 1 --schedules 20
// on e goto S with an inline handler that takes the payload; the target
// is the current state, whose entry takes no payload.
type tFail = (code: int, why: string);
event eFail : tFail;
machine Main {
  var lastCode: int;
  var tries: int;
  start state Init {
    entry {
      tries = tries + 1;
      if (tries < 3) { send this, eFail, (code = tries, why = "again"); }
      else { assert lastCode == 2, "the with-handler saw the last payload"; }
    }
    on eFail goto Init with (f: tFail) { lastCode = f.code; assert f.why == "again"; }
  }
}
