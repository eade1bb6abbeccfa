// pcheck-args: --search random --seed 1 --schedules 20
// Sending named tuples: literal types and typedefs agree; nested named
// tuples; a one-field named tuple.
type tReq = (client: machine, id: int, body: (key: string, val: int));
event eReq : tReq;
event eOne : (only: int);
event eRaw : (client: machine, id: int, body: (key: string, val: int));
machine Main {
  var got: int;
  start state S {
    entry {
      var r: tReq;
      r = (client = this, id = 1, body = (key = "k", val = 2));
      send this, eReq, r;
      send this, eReq, (client = this, id = 2, body = (key = "j", val = 3));
      send this, eRaw, r;
      send this, eOne, (only = 9,);
    }
    on eReq do (q: (client: machine, id: int, body: (key: string, val: int))) { got = got + q.body.val; }
    on eRaw do (q: tReq) { assert q.client == this && q.body.key == "k"; got = got + 1; }
    on eOne do (o: (only: int)) { assert o.only == 9 && got == 6; }
  }
}
