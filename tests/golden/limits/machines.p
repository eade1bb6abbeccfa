// pcheck-args: -S ses -q --max-machines 20 --mem 64M
// Machines that each create the next, for ever: the search stops where a
// State would hold a 21st machine (bounded).
machine Link {
  start state Init {
    entry { new Link(); }
  }
}

machine Main {
  start state Init {
    entry { new Link(); }
  }
}
