"""HTTP and websockets: the only layer that speaks HTTP. Build the app with ``create_app``."""
