"""gunicorn's settings beyond the command line (`-c python:api.gunicorn_conf`): its logs in the
server's format, and the metrics of a web worker that exits forgotten."""
from api import logs, metrics

logconfig_dict = logs.gunicorn_logconfig()


def child_exit(server, worker):
    metrics.process_exited(worker.pid)
