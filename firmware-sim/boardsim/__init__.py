"""A virtual DGT e-board (and DGT 3000 clock) that speaks the real wire protocol.

An independent implementation of the board side of the wire: it imports neither ``relay``
nor ``drivers``, so a driver that talks to it is tested against a second reading of the
protocol, not against itself.

Sans-I/O cores (no sockets, no sleeping, no clock reading; time is passed in as ``now``):

* :mod:`.board` - the firmware of one board (single-board and bus mode), with
  :mod:`.scanner` (sensor sweeps), :mod:`.board_log` (the EEPROM log), :mod:`.bus_mode`
  (addressed, checksummed bus commands), :mod:`.clock` (the DGT 3000) and :mod:`.bwtime`
  (clock state and acks on the wire); :mod:`.wire`, :mod:`.pieces` and :mod:`.modes` hold
  the vocabulary;
* :mod:`.chain` - several boards on one line;
* :mod:`.line` - the line's speed (9600 baud when asked) and line faults;
* :mod:`.hands`, :mod:`.noise`, :mod:`.pace`, :mod:`.performance` - a game turned into timed
  hand actions, clean or untidy.

Thin I/O around them: :mod:`.link` (the event-loop driver), :mod:`.pty_link` and
:mod:`.tcp_link` (transports), :mod:`.player` (plays a performance in real time),
:mod:`.faults` (the fault spec and how faults are done), :mod:`.service` and :mod:`.cli`
(``boardsim serve``).
"""
