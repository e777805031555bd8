"""The venue agent: the boards at the venue, their events stored and forwarded to a hub
anywhere (docs/venue-agent.md)."""
