"""JSON schemas of /servers/{server_id}/ips and .../os-server-password:
their queries, which take no parameters and ignore any (as Nova)."""

from tether.api import validation

QUERY = validation.IGNORED_QUERY
