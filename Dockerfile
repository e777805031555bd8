# The hub alone (`relay serve`), for a server or a venue machine.
#   docker build -t chess-relay .
#   docker run -p 8000:8000 -v relay-data:/data chess-relay
# A USB board: add --device /dev/ttyACM0 (the user is in the dialout group).
# The install is a user's `pip install .`: the pages ship inside the package.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    RELAY_HOST=0.0.0.0 \
    RELAY_PORT=8000 \
    RELAY_DB=sqlite:////data/relay.db

WORKDIR /src
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock

COPY pyproject.toml README.md LICENSE ./
COPY relay ./relay
COPY drivers ./drivers
COPY firmware-sim ./firmware-sim
COPY web ./web
RUN pip install --no-cache-dir --no-deps . \
    && rm -rf /src \
    && useradd --system --uid 10001 --groups dialout --home-dir /data relay \
    && mkdir -p /data && chown relay /data

USER relay
WORKDIR /data
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD python -c 'import os, urllib.request; urllib.request.urlopen("http://127.0.0.1:%s/api/health" % os.environ.get("RELAY_PORT", "8000"), timeout=3)'
CMD ["relay", "serve"]
