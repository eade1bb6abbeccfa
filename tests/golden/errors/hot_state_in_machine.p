// expect: only meaningful in specs
machine Main {
  start hot state S { }
}
