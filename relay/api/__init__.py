"""HTTP: the routes and the app (``create_app``), which mounts the streams of ``relay.edge``."""
