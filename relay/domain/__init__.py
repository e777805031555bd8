"""Pure logic: no I/O, no clock reads (time is passed in). Imports only stdlib and chess."""
