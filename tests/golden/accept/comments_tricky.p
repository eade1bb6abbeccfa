// Comments in awkward places: between tokens of an expression, a block
// comment holding // and *, stars before the close, a line comment ending
// in a backslash \
/* a block with // inside and a * and ** */
event /**/ e1 /* between */ ;
/***/
/****** stars ******/
machine Main {
  var x /* name */ : /* type */ int;
  start /* keyword */ state S {
    entry {
      x = 1 /* operand */ + /* operator */ 2; // after
      x = x/**/*/**/3;
      assert x == 9 /* assert */, "x" /* message */;
    }
  }
}
/* at the end, without a newline after it */