"""The outputs: every broadcast platform and webmaster fed at once (docs/outputs.md).

The event file names the outputs (:mod:`relay.domain.formats.output_setup`); the hub's
:class:`~relay.hub.outputs.desk.OutputDesk` runs one :class:`~relay.hub.outputs.runner.OutputRunner`
per pushed output (lichess, a folder, FTP), which copies each published round as the public
sees it (after the transmission delay) and hands the copy to the output whenever it
changed, with retries, backoff and a status line for the console. The LiveChess JSON feed is
pulled, not pushed: the API serves it when the event file asks for it.
"""
